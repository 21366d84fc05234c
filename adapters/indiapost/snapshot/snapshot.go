// Package snapshot embeds the official dataset files Pinsight serves by
// default: the five files listed in Catalogue, byte for byte as published
// (gzip-compressed), with their dates, sources and attribution. NOTICE,
// beside this file, says the same for people.
//
// Dataset returns the dataset those files give, decoded from a derived
// copy embedded beside them (dataset.bin.zst, checked against the files by
// a test). A binary that calls Dataset links about 3.5 MB of it, one that
// calls FS or Files about 3 MB of the files; package indiapost alone reads
// files from anywhere without either.
package snapshot

import (
	"embed"
	"io/fs"

	"github.com/pinsight/pinsight/adapters/indiapost"
)

//go:embed *.csv.gz
var files embed.FS

// Notice is the text of the NOTICE file: source, licence and attribution
// of every embedded file.
//
//go:embed NOTICE
var Notice string

// Release is the embedded release: the data.gov.in update date of the All
// India Pincode Directory.
const Release = "2025-10-03"

// File is one embedded file and what is known of it.
type File struct {
	Name        string // file name in FS
	Role        string // indiapost.RoleDirectory, RoleStates, ...
	Date        string // its own publication date (YYYY-MM-DD); "" when the export is undated
	Rows        int    // data rows (the header excluded)
	SHA256      string // of the .gz bytes
	Source      string // where it was published
	Attribution string // the GODL attribution it asks for
}

// Catalogue lists the embedded files, the directory first.
var Catalogue = []File{
	{
		Name: "all_india_pincode_directory.csv.gz", Role: indiapost.RoleDirectory, Date: Release, Rows: 165627,
		SHA256: "2112fc5775bf5541876eb03192ac2da394936522b31c54ef8cd44ec62eec15f0",
		Source: "data.gov.in resource 5c2f62fe-5afa-4119-a499-fec9d604d5bd, All India Pincode Directory till last month",
		Attribution: "Department of Posts, Ministry of Communications, Government of India, All India Pincode Directory " +
			"till last month, Open Government Data Platform India, GODL.",
	},
	{
		Name: "lgd_states.csv.gz", Role: indiapost.RoleStates, Date: "2021-07-02", Rows: 36,
		SHA256: "1edffd4efaea0a48568218dc561954db1fc1905bd89070f686091bbb6ac14d28",
		Source: "lgdirectory.gov.in, All States of India export",
		Attribution: "Ministry of Panchayati Raj, Government of India, Local Government Directory, All States of India, " +
			"GODL.",
	},
	{
		Name: "lgd_districts.csv.gz", Role: indiapost.RoleDistricts, Date: "2026-10-07", Rows: 784,
		SHA256: "a0dd09a2ea2dc49c7396b55f3bb49d76eefc4ef93a612133bb75e900210c8b00",
		Source: "lgdirectory.gov.in, All Districts of India export",
		Attribution: "Ministry of Panchayati Raj, Government of India, Local Government Directory, All Districts of " +
			"India, GODL.",
	},
	{
		Name: "lgd_districts_legacy_c2021.csv.gz", Role: indiapost.RoleLegacyDistricts, Date: "", Rows: 739,
		SHA256: "5130e8566ef7042e257c04b649bad2ede511edf506bf2cd1050fca937d88d16e",
		Source: "lgdirectory.gov.in, All Districts of India export (undated, circa 2021-22)",
		Attribution: "Ministry of Panchayati Raj, Government of India, Local Government Directory, All Districts of " +
			"India, GODL.",
	},
	{
		Name: "lgd_villages_pincode_west_bengal.csv.gz", Role: indiapost.RoleVillages, Date: "2025-07-19", Rows: 41005,
		SHA256: "ac074d2dd5336ad580ca337b1a34f48d7aaba21db163d6d172199de0446411db",
		Source: "data.gov.in resource f17a1608-5f10-4610-bb50-a63c80d83974, LGD - Villages with PIN Codes (West Bengal only)",
		Attribution: "Ministry of Panchayati Raj, Government of India, Local Government Directory, Villages with PIN " +
			"Codes, Open Government Data Platform India, GODL.",
	},
}

// FS returns the embedded files, by the names in Catalogue.
func FS() fs.FS { return files }

// Files names the embedded files for indiapost.Load, marked as the
// embedded snapshot with each file's date.
func Files() indiapost.Files {
	f := indiapost.FindFS(files)
	dates := make(map[string]string, len(Catalogue))
	for _, c := range Catalogue {
		if c.Date != "" {
			dates[c.Name] = c.Date
		}
	}
	f.Embedded = &indiapost.Embedded{Dates: dates}
	return f
}
