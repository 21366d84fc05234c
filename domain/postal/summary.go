package postal

// StateSummary is a state with its counts.
type StateSummary struct {
	State
	DistrictsCount   int
	PincodesCount    int
	PostOfficesCount int
}

// DistrictSummary is a district with its state and counts.
type DistrictSummary struct {
	District
	StateName        string
	PincodesCount    int
	PostOfficesCount int
}

// Info describes the loaded dataset.
type Info struct {
	Loaded        bool
	HasLGD        bool
	Offices       int
	Pincodes      int
	States        int
	Districts     int
	Villages      int
	VillageStates []string
	Report        CleaningReport
	Version       string // changes whenever another dataset is loaded (ETag)
	Source        Source // where the dataset was read from
}
