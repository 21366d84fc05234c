package indiapost_test

import (
	"math"
	"testing"

	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/domain/postal"
)

// The fixture files in testdata are hand-written in the official layouts,
// one or a few rows per cleaning rule (see the comments of each test).
const fixtureDir = "testdata"

func loadFixture(t *testing.T) *indiapost.Result {
	t.Helper()
	res, err := indiapost.Load(indiapost.FindFiles(fixtureDir, indiapost.Files{}))
	if err != nil {
		t.Fatalf("Load(%s): %v", fixtureDir, err)
	}
	return res
}

// fixtureOffice returns the one office of pin published as name.
func fixtureOffice(t *testing.T, ds *postal.Dataset, pin, name string) postal.PostOffice {
	t.Helper()
	var found []postal.PostOffice
	for _, o := range ds.Offices {
		if string(o.Pincode) == pin && o.Name == name {
			found = append(found, o)
		}
	}
	if len(found) != 1 {
		t.Fatalf("offices %q in %s: %d, want 1", name, pin, len(found))
	}
	return found[0]
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestFindFilesFixture(t *testing.T) {
	f := indiapost.FindFiles(fixtureDir, indiapost.Files{})
	want := indiapost.Files{
		Directory: "testdata/all_india_pincode_directory.csv", States: "testdata/lgd_states.csv",
		Districts: "testdata/lgd_districts.csv", LegacyDistricts: "testdata/lgd_districts_legacy_c2021.csv",
		Villages: "testdata/lgd_villages_pincode_fixture.csv",
	}
	if f != want {
		t.Fatalf("FindFiles = %+v, want %+v", f, want)
	}
	f = indiapost.FindFiles(fixtureDir, indiapost.Files{States: "other.csv"})
	if f.States != "other.csv" || f.Directory != want.Directory {
		t.Fatalf("FindFiles with an override = %+v, want the override kept and the rest found", f)
	}
}

func TestCleanLocations(t *testing.T) {
	ds := loadFixture(t).Dataset
	type loc = postal.Location
	tests := []struct {
		rule, pin, name string
		want            *loc
		quality         postal.LocationQuality
	}{
		{"valid as published", "110001", "Baroda House SO", &loc{Latitude: 28.6174167, Longitude: 77.2129167}, postal.QualityExact},
		{"NA both -> null", "110003", "Jor Bagh BO", nil, postal.QualityMissing},
		{"NA one side -> null", "734001", "Half Known B.O", nil, postal.QualityMissing},
		{"swapped -> swapped back", "110001", "Connaught Place S.O", &loc{Latitude: 28.6315, Longitude: 77.2167}, postal.QualityCorrected},
		{"degree and hemisphere text", "121004", "PYALA BO", &loc{Latitude: 28.430354, Longitude: 77.358526}, postal.QualityCorrected},
		{"degree sign only", "504302", "Integrated District Officers Complex(IDOC) Mancher", &loc{Latitude: 18.856818, Longitude: 79.462604}, postal.QualityCorrected},
		{"DMS", "502247", "Mubaraspur B.O", &loc{Latitude: 17 + 57.0/60 + 17.7/3600, Longitude: 78 + 35.0/60 + 48.3/3600}, postal.QualityCorrected},
		{"hemisphere letter", "801308", "Daniyawan SO", &loc{Latitude: 25.43, Longitude: 85.29}, postal.QualityCorrected},
		{"space inside the number", "792130", "Longliang", &loc{Latitude: 26.5212743, Longitude: 95.3054302}, postal.QualityCorrected},
		{"space inside the number, short head", "791101", "Legi", &loc{Latitude: 28.432628, Longitude: 94.2828092}, postal.QualityCorrected},
		{"0,0 -> null", "734001", "New Siliguri B.O", nil, postal.QualityMissing},
		{"0.0000000,0.0000000 -> null", "734001", "Zero Point B.O", nil, postal.QualityMissing},
		{"lat == lon -> null", "734001", "Same Value BO", nil, postal.QualityMissing},
		{"outside India even swapped -> null", "734001", "Out Of Box B.O", nil, postal.QualityMissing},
		{"junk longitude -> null", "734001", "Junk Point BO", nil, postal.QualityMissing},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			o := fixtureOffice(t, ds, tt.pin, tt.name)
			if o.Quality != tt.quality {
				t.Errorf("quality = %q, want %q", o.Quality, tt.quality)
			}
			switch {
			case tt.want == nil && o.Location != nil:
				t.Errorf("location = %+v, want null", *o.Location)
			case tt.want != nil && o.Location == nil:
				t.Errorf("location = null, want %+v", *tt.want)
			case tt.want != nil && (!near(o.Location.Latitude, tt.want.Latitude) || !near(o.Location.Longitude, tt.want.Longitude)):
				t.Errorf("location = %+v, want %+v", *o.Location, *tt.want)
			}
		})
	}
}

func TestCleanExactDuplicatesOnce(t *testing.T) {
	ds := loadFixture(t).Dataset
	// Three "Talwade B.O" rows in 431002: two identical (one office), one
	// in another division (a second office).
	var divisions []string
	for _, o := range ds.Offices {
		if o.Pincode == "431002" && o.Name == "Talwade B.O" {
			divisions = append(divisions, o.Division)
		}
	}
	if len(divisions) != 2 || divisions[0] == divisions[1] {
		t.Fatalf("Talwade B.O offices: divisions %q, want two different", divisions)
	}
	if got := ds.Report.DuplicateRows; got != 1 {
		t.Fatalf("DuplicateRows = %d, want 1", got)
	}
}

func TestCleanNamesKeptAsPublished(t *testing.T) {
	ds := loadFixture(t).Dataset
	// Display names stay as published; only the matching key drops the
	// office-type suffix, whatever its spelling.
	tests := []struct{ pin, name, key string }{
		{"110001", "New Delhi G.P.O", "new delhi"},
		{"110001", "Baroda House SO", "baroda house"},
		{"110001", "Connaught Place S.O", "connaught place"},
		{"110001", "Parliament House S.O.", "parliament house"},
		{"110002", "Ajmeri Gate B.O", "ajmeri gate"},
		{"110002", "Minto Road BO", "minto road"},
		{"110003", "Lodi Road H.O", "lodi road"},
		{"824101", "Aurangabad BH HO", "aurangabad bh"},
		{"431002", "karanj bo", "karanj"},
		{"734014", "BAGDOGRA S.O", "bagdogra"},
		{"121004", "Sector 21, Faridabad S.O", "sector 21 faridabad"},
		{"431001", "Medical College S.O (Chhatrapati Sambhajinagar)", "medical college chhatrapati sambhajinagar"},
	}
	for _, tt := range tests {
		o := fixtureOffice(t, ds, tt.pin, tt.name)
		if got := postal.OfficeKey(o.Name); got != tt.key {
			t.Errorf("OfficeKey(%q) = %q, want %q", o.Name, got, tt.key)
		}
	}
}

func TestCleanLGDCodes(t *testing.T) {
	ds := loadFixture(t).Dataset
	if !ds.HasLGD {
		t.Fatal("HasLGD = false with the LGD files loaded")
	}
	tests := []struct {
		rule, pin, name string
		stateID         int
		state           string
		districtID      int
		district        string
	}{
		{"current name", "734001", "Siliguri H.O", 19, "West Bengal", 309, "Darjeeling"},
		{"current name, mixed case state", "110002", "Darya Ganj S.O", 7, "Delhi", 77, "Central"},
		{"legacy name", "743101", "Barasat H.O", 19, "West Bengal", 303, "North 24 Parganas"},
		{"legacy name of a renamed district", "431001", "Medical College S.O (Chhatrapati Sambhajinagar)", 27, "Maharashtra", 469, "Chhatrapati Sambhajinagar"},
		{"legacy-only district", "110032", "Shahdara S.O", 7, "Delhi", 671, "Shahdara"},
		{"alias Bagalkot", "587101", "Bagalkot H.O", 29, "Karnataka", 524, "Bagalkote"},
		{"alias Vijaynagar", "583201", "Hosapete Patel Nagar S.O", 29, "Karnataka", 738, "Vijayanagara"},
		{"alias Firozepur", "152001", "Sadar Bazar SO Firozpur", 3, "Punjab", 31, "Ferozepur"},
		{"alias Konaseema", "533201", "Amalapuram Bus Complex S.O", 28, "Andhra Pradesh", 747, "Dr. B.R. Ambedkar Konaseema"},
		{"THE prefix on the state", "396210", "Bhimpore BO", 38, "Dadra and Nagar Haveli and Daman and Diu", 463, "Daman"},
		{"same district name in two states (HP)", "177001", "Hamirpur H.O", 2, "Himachal Pradesh", 17, "Hamirpur"},
		{"same district name in two states (UP)", "110025", "Okhla Border B.O", 9, "Uttar Pradesh", 149, "Hamirpur"},
		{"same district name in two states (Bihar)", "824101", "Aurangabad BH HO", 10, "Bihar", 189, "Aurangabad"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			o := fixtureOffice(t, ds, tt.pin, tt.name)
			if o.StateID != tt.stateID || o.State != tt.state || o.DistrictID != tt.districtID || o.District != tt.district {
				t.Fatalf("state %d %q, district %d %q; want %d %q, %d %q",
					o.StateID, o.State, o.DistrictID, o.District, tt.stateID, tt.state, tt.districtID, tt.district)
			}
		})
	}
	if got := ds.Report.DistrictsByAlias; got != 4 {
		t.Errorf("DistrictsByAlias = %d, want 4", got)
	}
}

func TestCleanDistrictList(t *testing.T) {
	ds := loadFixture(t).Dataset
	byID := map[int]postal.District{}
	for _, d := range ds.Districts {
		byID[d.ID] = d
	}
	// Every current LGD district is listed, with or without offices; a
	// legacy-only code only when offices map to it (Shahdara, not Mahe).
	for _, id := range []int{15, 17, 31, 60, 77, 79, 796, 149, 189, 209, 303, 309, 315, 375, 469, 747, 524, 738, 513, 684, 463, 465, 671} {
		if _, found := byID[id]; !found {
			t.Errorf("district %d missing from the list", id)
		}
	}
	if _, found := byID[599]; found {
		t.Errorf("legacy-only district 599 (Mahe) listed without offices")
	}
	alt := []struct {
		id        int
		name, alt string
	}{
		{303, "North 24 Parganas", "24 Paraganas North"},
		{469, "Chhatrapati Sambhajinagar", "Aurangabad"},
		{524, "Bagalkote", "Bagalkot"},
		{738, "Vijayanagara", "Vijaynagar"},
		{31, "Ferozepur", "Firozepur"},
		{747, "Dr. B.R. Ambedkar Konaseema", "Konaseema"},
		{309, "Darjeeling", ""}, // same name up to case: no alt_name
		{671, "Shahdara", ""},
		{315, "Kolkata", ""}, // no offices
	}
	for _, tt := range alt {
		if d := byID[tt.id]; d.Name != tt.name || d.AltName != tt.alt {
			t.Errorf("district %d = %q alt %q, want %q alt %q", tt.id, d.Name, d.AltName, tt.name, tt.alt)
		}
	}
}

func TestCleanUnresolvedNamesGetDerivedIDs(t *testing.T) {
	ds := loadFixture(t).Dataset
	// ARUNACHAL PRADESH is not in the fixture's LGD states, and Unknownpur
	// is in no LGD district file: each gets a stable id above every LGD code.
	legi := fixtureOffice(t, ds, "791101", "Legi")
	longliang := fixtureOffice(t, ds, "792130", "Longliang")
	if legi.StateID < 100000 || legi.StateID != longliang.StateID || legi.State != "Arunachal Pradesh" {
		t.Errorf("Arunachal Pradesh: ids %d / %d, name %q; want one derived id >= 100000", legi.StateID, longliang.StateID, legi.State)
	}
	old := fixtureOffice(t, ds, "110032", "Old Town B.O")
	if old.StateID != 7 || old.DistrictID < 100000 || old.District != "Unknownpur" {
		t.Errorf("Old Town B.O: state %d, district %d %q; want 7 and a derived district", old.StateID, old.DistrictID, old.District)
	}
	if r := ds.Report; r.UnresolvedStateRows != 2 || r.UnresolvedDistrictRows != 3 {
		t.Errorf("unresolved rows: states %d, districts %d; want 2 and 3", r.UnresolvedStateRows, r.UnresolvedDistrictRows)
	}
	again := loadFixture(t).Dataset
	if o := fixtureOffice(t, again, "110032", "Old Town B.O"); o.DistrictID != old.DistrictID {
		t.Errorf("derived district id %d, then %d: want stable", old.DistrictID, o.DistrictID)
	}
}

func TestCleanInheritStateDistrict(t *testing.T) {
	ds := loadFixture(t).Dataset
	tests := []struct {
		rule, pin, name string
		stateID         int
		districtID      int
	}{
		// 110001's other rows all say NEW DELHI, DELHI.
		{"inherited", "110001", "Parliament House S.O.", 7, 79},
		// 121004's other rows all say FARIDABAD, HARYANA.
		{"inherited (re-parsed point too)", "121004", "PYALA BO", 6, 60},
		// 110025's other rows disagree (DELHI and UTTAR PRADESH).
		{"others disagree: unknown", "110025", "Zakir Nagar B.O", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			o := fixtureOffice(t, ds, tt.pin, tt.name)
			if o.StateID != tt.stateID || o.DistrictID != tt.districtID {
				t.Fatalf("state %d, district %d; want %d, %d", o.StateID, o.DistrictID, tt.stateID, tt.districtID)
			}
			if tt.stateID == 0 && (o.State != "" || o.District != "") {
				t.Fatalf("unknown region named %q / %q, want empty", o.State, o.District)
			}
		})
	}
	if r := ds.Report; r.InheritedStateDistrict != 2 || r.UnknownStateDistrict != 1 {
		t.Errorf("inherited %d, unknown %d; want 2 and 1", r.InheritedStateDistrict, r.UnknownStateDistrict)
	}
}

func TestCleanRegionNA(t *testing.T) {
	ds := loadFixture(t).Dataset
	if o := fixtureOffice(t, ds, "110001", "Parliament House S.O."); o.Region != "" {
		t.Errorf("region published NA = %q, want empty (null)", o.Region)
	}
	if o := fixtureOffice(t, ds, "110001", "Baroda House SO"); o.Region != "DivReportingCircle" {
		t.Errorf("region = %q, want as published", o.Region)
	}
	if got := ds.Report.RegionNA; got != 3 {
		t.Errorf("RegionNA = %d, want 3", got)
	}
}

func TestCleanApproximate(t *testing.T) {
	ds := loadFixture(t).Dataset
	quality := map[postal.Pincode]map[postal.LocationQuality]int{}
	for _, o := range ds.Offices {
		if quality[o.Pincode] == nil {
			quality[o.Pincode] = map[postal.LocationQuality]int{}
		}
		quality[o.Pincode][o.Quality]++
	}
	// 824101: 10 offices on one point (SharedPointMin); 824102: 9 on another.
	if got := quality["824101"]; got[postal.QualityApproximate] != postal.SharedPointMin || len(got) != 1 {
		t.Errorf("824101 qualities %v, want all %d approximate", got, postal.SharedPointMin)
	}
	if got := quality["824102"]; got[postal.QualityExact] != postal.SharedPointMin-1 || len(got) != 1 {
		t.Errorf("824102 qualities %v, want all %d exact", got, postal.SharedPointMin-1)
	}
	// 110002: Kamla Market is ~180 km from the median of the 3 others.
	if o := fixtureOffice(t, ds, "110002", "Kamla Market B.O"); o.Quality != postal.QualityApproximate || o.Location == nil {
		t.Errorf("far office: quality %q, location %v; want approximate, kept", o.Quality, o.Location)
	}
	for _, name := range []string{"Darya Ganj S.O", "Ajmeri Gate B.O", "Minto Road BO"} {
		if o := fixtureOffice(t, ds, "110002", name); o.Quality != postal.QualityExact {
			t.Errorf("%s: quality %q, want exact", name, o.Quality)
		}
	}
	// 110003: only 2 located offices (250 km apart): the rule needs 3.
	for _, name := range []string{"Lodi Road H.O", "Pragati Vihar B.O"} {
		if o := fixtureOffice(t, ds, "110003", name); o.Quality != postal.QualityExact {
			t.Errorf("%s: quality %q, want exact (fewer than %d located)", name, o.Quality, postal.OutlierMinLocated)
		}
	}
	if r := ds.Report; r.ApproximateShared != 10 || r.ApproximateOutlier != 1 {
		t.Errorf("approximate: shared %d, outlier %d; want 10 and 1", r.ApproximateShared, r.ApproximateOutlier)
	}
}

func TestCleaningReportAccountsForEveryRow(t *testing.T) {
	res := loadFixture(t)
	r := res.Dataset.Report
	// 68 data rows: 2 malformed, 1 exact duplicate, 1 bad PIN, 64 offices.
	if r.OfficeRows != 68 || r.Offices != 64 || r.MalformedRows != 2 || r.DuplicateRows != 1 || r.InvalidPincodes != 1 {
		t.Fatalf("report %+v, want 68 rows = 64 offices + 2 malformed + 1 duplicate + 1 invalid PIN", r)
	}
	if got := r.Offices + r.MalformedRows + r.DuplicateRows + r.InvalidPincodes; got != r.OfficeRows {
		t.Fatalf("accounted %d of %d rows", got, r.OfficeRows)
	}
	if len(res.Dataset.Offices) != r.Offices || r.Pincodes != 24 {
		t.Errorf("%d offices in %d PINs, want %d in 24", len(res.Dataset.Offices), r.Pincodes, r.Offices)
	}
	wantRules := map[string]int{
		postal.RuleExact: 48, postal.RuleSwapped: 1, postal.RuleReparsed: 6, postal.RuleNA: 4,
		postal.RuleZero: 2, postal.RuleEqual: 1, postal.RuleOutside: 2,
	}
	if !equalCounts(r.Locations, wantRules) {
		t.Errorf("location rules %v, want %v", r.Locations, wantRules)
	}
	wantQuality := map[postal.LocationQuality]int{
		postal.QualityExact: 37, postal.QualityCorrected: 7, postal.QualityApproximate: 11, postal.QualityMissing: 9,
	}
	if !equalCounts(r.Qualities, wantQuality) {
		t.Errorf("qualities %v, want %v", r.Qualities, wantQuality)
	}
	// Villages: 18 rows, 1 exact duplicate, 1 with a 5-digit PIN.
	if r.VillageRows != 18 || r.Villages != 16 || r.VillageDuplicates != 1 || r.VillageInvalid != 1 {
		t.Errorf("village report %d rows, %d villages, %d duplicates, %d invalid; want 18, 16, 1, 1",
			r.VillageRows, r.Villages, r.VillageDuplicates, r.VillageInvalid)
	}
	if vs := res.Dataset.VillageStates; len(vs) != 1 || vs[0] != "West Bengal" {
		t.Errorf("village coverage %q, want [West Bengal]", vs)
	}
}

func equalCounts[K comparable](got, want map[K]int) bool {
	for k, n := range want {
		if got[k] != n {
			return false
		}
	}
	for k, n := range got {
		if want[k] != n {
			return false
		}
	}
	return true
}

func TestOfficeIDsUniqueAndStable(t *testing.T) {
	a, b := loadFixture(t).Dataset, loadFixture(t).Dataset
	seen := map[int64]bool{}
	for i, o := range a.Offices {
		if o.ID <= 0 || seen[o.ID] {
			t.Fatalf("office %q: id %d repeated or not positive", o.Name, o.ID)
		}
		seen[o.ID] = true
		if b.Offices[i].ID != o.ID || b.Offices[i].Name != o.Name {
			t.Fatalf("office %d: id %d %q, then %d %q", i, o.ID, o.Name, b.Offices[i].ID, b.Offices[i].Name)
		}
	}
}

func TestLoadWithoutLGDFiles(t *testing.T) {
	res, err := indiapost.Load(indiapost.Files{Directory: fixtureDir + "/all_india_pincode_directory.csv"})
	if err != nil {
		t.Fatal(err)
	}
	ds := res.Dataset
	if ds.HasLGD {
		t.Fatal("HasLGD = true without LGD files")
	}
	a := fixtureOffice(t, ds, "110001", "Baroda House SO")
	b := fixtureOffice(t, ds, "110002", "Darya Ganj S.O")
	if a.StateID < 100000 || a.StateID != b.StateID || a.DistrictID == b.DistrictID {
		t.Errorf("derived ids: Delhi %d / %d, districts %d / %d; want one state id >= 100000, two districts", a.StateID, b.StateID, a.DistrictID, b.DistrictID)
	}
	if a.State != "Delhi" || a.District != "New Delhi" {
		t.Errorf("names %q / %q, want the published names for display", a.State, a.District)
	}
	if len(ds.Villages) != 0 || ds.Report.Offices != 64 {
		t.Errorf("%d villages, %d offices; want 0 and 64", len(ds.Villages), ds.Report.Offices)
	}
}
