package postal

// LocationQuality says how far an office's coordinates can be trusted.
type LocationQuality string

// Location qualities, from best to worst.
const (
	// QualityExact: published as a valid point in India's box.
	QualityExact LocationQuality = "exact"
	// QualityCorrected: published swapped (latitude and longitude
	// exchanged) or as degree / DMS text, and repaired.
	QualityCorrected LocationQuality = "corrected"
	// QualityApproximate: a placeholder shared by many offices, or far from
	// the rest of its PIN; returned, but not to be trusted to the metre.
	QualityApproximate LocationQuality = "approximate"
	// QualityMissing: not published, or unusable (0,0, latitude equal to
	// longitude, outside India's box); the location is null.
	QualityMissing LocationQuality = "missing"
)

// Location is a point in decimal degrees.
type Location struct {
	Latitude  float64
	Longitude float64
}

// Office types as published (officetype column) and as shown.
const (
	TypeHead   = "HO"
	TypeSub    = "PO" // sub offices are "PO" in the directory
	TypeBranch = "BO"
)

// BranchTypeName is the display name of a published office type.
func BranchTypeName(officeType string) string {
	switch officeType {
	case TypeHead:
		return "Head Office"
	case TypeSub:
		return "Sub Office"
	case TypeBranch:
		return "Branch Office"
	}
	return officeType
}

// PostOffice is one office of the directory, cleaned.
type PostOffice struct {
	ID         int64 // deterministic for a dataset release: position in the published file
	Pincode    Pincode
	Name       string // as published
	OfficeType string // HO, PO (sub office) or BO
	Delivery   string // "Delivery" or "Non Delivery"
	Circle     string
	Region     string // "" when published as NA
	Division   string
	District   string // LGD name when resolved, else as published; "" when unknown
	State      string // LGD name when resolved, else as published; "" when unknown
	DistrictID int    // LGD code (or derived); 0 when unknown
	StateID    int    // LGD code (or derived); 0 when unknown
	Location   *Location
	Quality    LocationQuality
	// Feedback is what users said of the office: filled by the directory
	// use case from the reviews (stores of the dataset leave it zero).
	Feedback Feedback
}

// State is a state or union territory.
type State struct {
	ID   int // LGD code
	Name string
}

// District is a district of a state.
type District struct {
	ID      int // LGD code
	Name    string
	AltName string // India Post's spelling when it differs from Name, else ""
	StateID int
}

// Village is a village served by a PIN code (LGD).
type Village struct {
	Code        string
	Name        string
	Subdistrict string
	District    string
	DistrictID  int
	State       string
	StateID     int
	Pincode     Pincode
}

// Nearby is an office with its distance from a query point.
type Nearby struct {
	Office     PostOffice
	DistanceKm float64
}

// NearbyRef is an office with its distance from a query point, by
// reference: Office is the store's own record, shared and never to be
// written (its Feedback stays zero), so a nearby list copies no office.
// Feedback is what users said of it, filled by the directory use case.
type NearbyRef struct {
	Office     *PostOffice
	DistanceKm float64
	Feedback   Feedback
}

// Nearby is n as a Nearby: a copy of its office, with its Feedback.
func (n *NearbyRef) Nearby() Nearby {
	o := *n.Office
	o.Feedback = n.Feedback
	return Nearby{Office: o, DistanceKm: n.DistanceKm}
}
