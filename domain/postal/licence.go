package postal

// Licence of the official data (India Post's directory and the Local
// Government Directory exports): the Government Open Data License - India,
// under the National Data Sharing and Accessibility Policy.
const Licence = "GODL-India"

// LicenceURL is where the licence is published.
const LicenceURL = "https://data.gov.in/government-open-data-license-india"

// Attribution is the GODL attribution the official data ask for.
const Attribution = "Department of Posts, Ministry of Communications, Government of India, All India Pincode Directory " +
	"till last month; Ministry of Panchayati Raj, Local Government Directory (states, districts, villages with PIN codes); " +
	"Open Government Data Platform India, Government Open Data License - India (GODL)."
