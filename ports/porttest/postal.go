package porttest

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
	"github.com/pinsight/pinsight/ports"
)

// TestPostalStore checks a PostalStore. newStore must return a store
// serving ds, or an empty store when ds is nil. The loaded store is built
// from PostalDataset.
func TestPostalStore(t *testing.T, newStore func(t *testing.T, ds *postal.Dataset) ports.PostalStore) {
	ds := PostalDataset()
	t.Run("empty", func(t *testing.T) { testPostalEmpty(t, newStore(t, nil)) })
	s := newStore(t, ds)
	c := &postalCase{ds: ds, s: s, byID: map[int64]postal.PostOffice{}}
	for _, o := range ds.Offices {
		c.byID[o.ID] = o
	}
	t.Run("info", c.info)
	t.Run("offices by pincode", c.officesByPincode)
	t.Run("office by id", c.officeByID)
	t.Run("states", c.states)
	t.Run("districts", c.districts)
	t.Run("district offices", c.districtOffices)
	t.Run("villages", c.villages)
	t.Run("search offices", c.searchOffices)
	t.Run("search villages", c.searchVillages)
	t.Run("nearest offices", c.nearestOffices)
	t.Run("cell offices", c.cellOffices)
}

// postalCase holds the loaded store and what it was loaded with.
type postalCase struct {
	ds   *postal.Dataset
	s    ports.PostalStore
	byID map[int64]postal.PostOffice
}

var bg = context.Background()

func testPostalEmpty(t *testing.T, s ports.PostalStore) {
	page := paging.Page{Number: 1, PerPage: 10}
	q := postal.SearchQuery{Key: "patna"}
	checks := map[string]error{}
	_, checks["Info"] = s.Info(bg)
	_, checks["OfficesByPincode"] = s.OfficesByPincode(bg, "800001")
	_, checks["Office"] = s.Office(bg, 1)
	_, checks["States"] = s.States(bg, "")
	_, checks["State"] = s.State(bg, "10")
	_, checks["Districts"] = s.Districts(bg, 10, "")
	_, checks["District"] = s.District(bg, "patna")
	_, _, checks["DistrictOffices"] = s.DistrictOffices(bg, 202, page)
	_, _, checks["Villages"] = s.Villages(bg, "700120", page)
	_, _, checks["SearchOffices"] = s.SearchOffices(bg, q, page)
	_, _, checks["SearchVillages"] = s.SearchVillages(bg, q, 0, 0, page)
	_, checks["NearestOffices"] = s.NearestOffices(bg, geo.NearQuery{Point: geo.Point{Lat: 25.6, Lon: 85.1}, Limit: 3})
	cell, _ := digipin.ParseCell("235")
	_, _, checks["CellOffices"] = s.CellOffices(bg, cell, page)
	for name, err := range checks {
		if !errors.Is(err, postal.ErrNoData) {
			t.Errorf("%s on an empty store: err = %v, want postal.ErrNoData", name, err)
		}
	}
}

// ids returns the ids of offices, in order.
func ids(offices []postal.PostOffice) []int64 {
	out := make([]int64, len(offices))
	for i, o := range offices {
		out[i] = o.ID
	}
	return out
}

// sameIDs compares id lists, nil and empty alike.
func sameIDs[T comparable](got, want []T) bool {
	return len(got) == len(want) && (len(got) == 0 || reflect.DeepEqual(got, want))
}

// sameOffices checks that offices are exactly the dataset's, in want order.
func (c *postalCase) sameOffices(t *testing.T, what string, got []postal.PostOffice, want []int64) {
	t.Helper()
	if !sameIDs(ids(got), want) {
		t.Errorf("%s = ids %v, want %v", what, ids(got), want)
		return
	}
	for _, o := range got {
		if !reflect.DeepEqual(o, c.byID[o.ID]) {
			t.Errorf("%s: office %d = %+v, want %+v", what, o.ID, o, c.byID[o.ID])
		}
	}
}

func (c *postalCase) info(t *testing.T) {
	got, err := c.s.Info(bg)
	if err != nil {
		t.Fatalf("Info: %v", err)
	}
	want := postal.Info{Loaded: true, HasLGD: true, Offices: 14, Pincodes: 11, States: 7, Districts: 8, Villages: 5,
		VillageStates: []string{"Bihar", "West Bengal"}, Report: c.ds.Report, Version: c.ds.Fingerprint()}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Info = %+v\nwant %+v", got, want)
	}
	if got.Report.DuplicateRows != 1 || got.Report.InvalidPincodes != 1 || got.Report.VillageDuplicates != 1 {
		t.Errorf("Info.Report = %+v, want one duplicate row, one invalid PIN, one duplicate village", got.Report)
	}
}

func (c *postalCase) officeByID(t *testing.T) {
	for _, want := range c.ds.Offices {
		got, err := c.s.Office(bg, want.ID)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Office(%d) = %+v, %v; want %+v", want.ID, got, err, want)
		}
	}
	for _, id := range []int64{0, -1, 1 << 40} {
		if _, err := c.s.Office(bg, id); !errors.Is(err, postal.ErrNotFound) {
			t.Errorf("Office(%d) err = %v, want postal.ErrNotFound", id, err)
		}
	}
}

func (c *postalCase) officesByPincode(t *testing.T) {
	tests := []struct {
		pin  postal.Pincode
		want []int64
	}{
		{"800001", []int64{3, 1}}, // by name key: "gandhi maidan" < "patna"
		{"800008", []int64{2, 15}},
		{"226002", []int64{11, 12}},
		{"400002", []int64{7}}, // no location
		{"110001", nil},
	}
	for _, tt := range tests {
		got, err := c.s.OfficesByPincode(bg, tt.pin)
		if err != nil {
			t.Errorf("OfficesByPincode(%s): %v", tt.pin, err)
			continue
		}
		c.sameOffices(t, "OfficesByPincode("+string(tt.pin)+")", got, tt.want)
	}
	if got, _ := c.s.OfficesByPincode(bg, "400002"); len(got) == 1 && (got[0].Location != nil || got[0].Quality != postal.QualityMissing) {
		t.Errorf("office 7 location = %v, %s; want nil, missing", got[0].Location, got[0].Quality)
	}
}

func (c *postalCase) states(t *testing.T) {
	list := []struct {
		prefix string
		want   []int
	}{
		{"", []int{35, 28, 10, 29, 27, 9, 19}},
		{"and", []int{35, 28}},
		{"  WEST ", []int{19}},
		{"x", nil},
	}
	for _, tt := range list {
		got, err := c.s.States(bg, tt.prefix)
		var gotIDs []int
		for _, s := range got {
			gotIDs = append(gotIDs, s.ID)
		}
		if err != nil || !sameIDs(gotIDs, tt.want) {
			t.Errorf("States(%q) = %v, %v; want %v", tt.prefix, gotIDs, err, tt.want)
		}
	}
	bihar := postal.StateSummary{State: postal.State{ID: 10, Name: "Bihar"}, DistrictsCount: 2, PincodesCount: 3, PostOfficesCount: 5}
	resolve := []struct {
		ref     string
		want    postal.StateSummary
		wantErr error
	}{
		{"10", bihar, nil},
		{"bihar", bihar, nil},
		{"Bih", bihar, nil},
		{"Andhra Pradesh", postal.StateSummary{State: postal.State{ID: 28, Name: "Andhra Pradesh"}}, nil},
		{"Uttar", postal.StateSummary{State: postal.State{ID: 9, Name: "Uttar Pradesh"}, DistrictsCount: 1, PincodesCount: 2, PostOfficesCount: 3}, nil},
		{"99", postal.StateSummary{}, postal.ErrNotFound},
		{"Goa", postal.StateSummary{}, postal.ErrNotFound},
	}
	for _, tt := range resolve {
		got, err := c.s.State(bg, tt.ref)
		if !errors.Is(err, tt.wantErr) || got != tt.want {
			t.Errorf("State(%q) = %+v, %v; want %+v, %v", tt.ref, got, err, tt.want, tt.wantErr)
		}
	}
	var amb *postal.AmbiguousError
	if _, err := c.s.State(bg, "and"); !errors.As(err, &amb) ||
		!reflect.DeepEqual(amb.Candidates, []postal.Candidate{{ID: 28, Name: "Andhra Pradesh"}, {ID: 35, Name: "Andaman and Nicobar Islands"}}) {
		t.Errorf("State(\"and\") err = %v, want ambiguous between 28 and 35", err)
	}
	var ve *postal.ValidationError
	if _, err := c.s.State(bg, "  "); !errors.As(err, &ve) {
		t.Errorf("State(blank) err = %v, want a validation error", err)
	}
}

func (c *postalCase) districts(t *testing.T) {
	patna := postal.DistrictSummary{District: postal.District{ID: 202, Name: "Patna", StateID: 10}, StateName: "Bihar",
		PincodesCount: 2, PostOfficesCount: 4}
	bagalkote := postal.DistrictSummary{District: postal.District{ID: 207, Name: "Bagalkote", AltName: "Bagalkot", StateID: 29},
		StateName: "Karnataka", PincodesCount: 1, PostOfficesCount: 1}
	list := []struct {
		state  int
		prefix string
		want   []int
	}{
		{10, "", []int{200, 202}},
		{10, "pat", []int{202}},
		{19, "", []int{204, 205}},
		{29, "bagalkot", []int{207}}, // India Post's spelling
		{28, "", nil},
		{10, "zzz", nil},
	}
	for _, tt := range list {
		got, err := c.s.Districts(bg, tt.state, tt.prefix)
		var gotIDs []int
		for _, d := range got {
			gotIDs = append(gotIDs, d.ID)
		}
		if err != nil || !sameIDs(gotIDs, tt.want) {
			t.Errorf("Districts(%d, %q) = %v, %v; want %v", tt.state, tt.prefix, gotIDs, err, tt.want)
		}
	}
	if got, err := c.s.Districts(bg, 10, "patna"); err != nil || len(got) != 1 || got[0] != patna {
		t.Errorf("Districts(10, patna) = %+v, %v; want %+v", got, err, patna)
	}
	resolve := []struct {
		ref     string
		want    postal.DistrictSummary
		wantErr error
	}{
		{"202", patna, nil},
		{"PATNA", patna, nil},
		{"pat", patna, nil},
		{"Bagalkot", bagalkote, nil},
		{"bagalkote", bagalkote, nil},
		{"999", postal.DistrictSummary{}, postal.ErrNotFound},
		{"Ranchi", postal.DistrictSummary{}, postal.ErrNotFound},
	}
	for _, tt := range resolve {
		got, err := c.s.District(bg, tt.ref)
		if !errors.Is(err, tt.wantErr) || got != tt.want {
			t.Errorf("District(%q) = %+v, %v; want %+v, %v", tt.ref, got, err, tt.want, tt.wantErr)
		}
	}
	var amb *postal.AmbiguousError
	if _, err := c.s.District(bg, "Aurangabad"); !errors.As(err, &amb) ||
		!reflect.DeepEqual(amb.Candidates, []postal.Candidate{{ID: 200, Name: "Aurangabad", State: "Bihar"}, {ID: 201, Name: "Aurangabad", State: "Maharashtra"}}) {
		t.Errorf("District(Aurangabad) err = %v, want ambiguous between 200 and 201", err)
	}
}

func (c *postalCase) districtOffices(t *testing.T) {
	tests := []struct {
		district, page, perPage int
		want                    []int64
		total                   int
	}{
		{202, 1, 10, []int64{3, 1, 2, 15}, 4}, // by pincode, then name key
		{202, 1, 3, []int64{3, 1, 2}, 4},
		{202, 2, 3, []int64{15}, 4},
		{202, 3, 3, nil, 4}, // beyond the last page
		{201, 1, 10, []int64{5}, 1},
		{99999, 1, 10, nil, 0},
	}
	for _, tt := range tests {
		got, total, err := c.s.DistrictOffices(bg, tt.district, paging.Page{Number: tt.page, PerPage: tt.perPage})
		if err != nil || total != tt.total {
			t.Errorf("DistrictOffices(%d, page %d) total = %d, %v; want %d", tt.district, tt.page, total, err, tt.total)
		}
		c.sameOffices(t, "DistrictOffices", got, tt.want)
	}
}

// villageCodes returns the codes of villages, in order.
func villageCodes(vs []postal.Village) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Code
	}
	return out
}

func (c *postalCase) villages(t *testing.T) {
	tests := []struct {
		pin           postal.Pincode
		page, perPage int
		want          []string
		total         int
	}{
		{"700120", 1, 10, []string{"1002", "1003", "1001"}, 3}, // by name key
		{"700120", 2, 2, []string{"1001"}, 3},
		{"700120", 3, 2, nil, 3},
		{"800001", 1, 10, nil, 0},
	}
	for _, tt := range tests {
		got, total, err := c.s.Villages(bg, tt.pin, paging.Page{Number: tt.page, PerPage: tt.perPage})
		if err != nil || total != tt.total || !sameIDs(villageCodes(got), tt.want) {
			t.Errorf("Villages(%s, page %d) = %v, %d, %v; want %v, %d", tt.pin, tt.page, villageCodes(got), total, err, tt.want, tt.total)
		}
	}
	got, _, _ := c.s.Villages(bg, "800008", paging.Page{Number: 1, PerPage: 10})
	want := postal.Village{Code: "2001", Name: "Chandanpura", Subdistrict: "Test Block", District: "Patna", DistrictID: 202,
		State: "Bihar", StateID: 10, Pincode: "800008"}
	if len(got) != 1 || got[0] != want {
		t.Errorf("Villages(800008) = %+v, want [%+v]", got, want)
	}
}

func (c *postalCase) searchOffices(t *testing.T) {
	tests := []struct {
		q             string
		page, perPage int
		want          []int64
		total         int
	}{
		// exact name ("Patna GPO" is "patna"), then exact district before name prefixes
		{"patna", 1, 10, []int64{1, 3, 2, 15}, 4},
		{"patna", 2, 2, []int64{2, 15}, 4},
		{"patna", 3, 2, nil, 4},
		{"800", 1, 10, []int64{3, 1, 2, 15}, 4}, // pincode prefix: by pincode, then name
		{"800001", 1, 10, []int64{3, 1}, 2},
		{"city", 1, 10, []int64{5, 2}, 2}, // word matches, by pincode
		{"maidan gan", 1, 10, []int64{3}, 1},
		{"Twin B B.O", 1, 10, []int64{12}, 1},
		{"north 24", 1, 10, []int64{9}, 1}, // district prefix
		{"zzz", 1, 10, nil, 0},
	}
	for _, tt := range tests {
		q, err := postal.ParseQuery(tt.q)
		if err != nil {
			t.Fatalf("ParseQuery(%q): %v", tt.q, err)
		}
		got, total, err := c.s.SearchOffices(bg, q, paging.Page{Number: tt.page, PerPage: tt.perPage})
		if err != nil || total != tt.total {
			t.Errorf("SearchOffices(%q, page %d) total = %d, %v; want %d", tt.q, tt.page, total, err, tt.total)
		}
		c.sameOffices(t, "SearchOffices("+tt.q+")", got, tt.want)
	}
}

func (c *postalCase) searchVillages(t *testing.T) {
	tests := []struct {
		q               string
		state, district int
		page, perPage   int
		want            []string
		total           int
	}{
		{"chandan", 0, 0, 1, 10, []string{"1004", "1002", "2001", "1001"}, 4}, // prefixes by name, then words
		{"chandan", 19, 0, 1, 10, []string{"1004", "1002", "1001"}, 3},
		{"chandan", 0, 205, 1, 10, []string{"1002", "1001"}, 2},
		{"chandan", 0, 0, 2, 3, []string{"1001"}, 4},
		{"chandan nagar", 0, 0, 1, 10, []string{"1004"}, 1},
		{"ichapur", 10, 0, 1, 10, nil, 0},
	}
	for _, tt := range tests {
		q, _ := postal.ParseQuery(tt.q)
		got, total, err := c.s.SearchVillages(bg, q, tt.state, tt.district, paging.Page{Number: tt.page, PerPage: tt.perPage})
		if err != nil || total != tt.total || !sameIDs(villageCodes(got), tt.want) {
			t.Errorf("SearchVillages(%q, %d, %d, page %d) = %v, %d, %v; want %v, %d",
				tt.q, tt.state, tt.district, tt.page, villageCodes(got), total, err, tt.want, tt.total)
		}
	}
}

func (c *postalCase) nearestOffices(t *testing.T) {
	lucknow := geo.Point{Lat: 26.8, Lon: 80.9}
	tests := []struct {
		p        geo.Point
		limit    int
		withinKm float64
		want     []int64
	}{
		{lucknow, 2, 0, []int64{11, 12}}, // same point: ties by id
		{lucknow, 3, 0, []int64{11, 12, 10}},
		{lucknow, 10, 1, []int64{11, 12}},
		{geo.Point{Lat: 25.6, Lon: 85.2}, 3, 0, []int64{2, 15, 3}},
		{geo.Point{Lat: 8.08, Lon: 77.55}, 5, 10, nil}, // nothing within 10 km
		{lucknow, 0, 0, nil},
	}
	for _, tt := range tests {
		got, err := c.s.NearestOffices(bg, geo.NearQuery{Point: tt.p, Limit: tt.limit, RadiusKm: tt.withinKm})
		var gotIDs []int64
		for _, n := range got {
			gotIDs = append(gotIDs, n.Office.ID)
			loc := c.byID[n.Office.ID].Location
			if want := geo.DistanceKm(tt.p, geo.Point{Lat: loc.Latitude, Lon: loc.Longitude}); n.DistanceKm != want {
				t.Errorf("NearestOffices: office %d at %v km, want %v", n.Office.ID, n.DistanceKm, want)
			}
		}
		if err != nil || !sameIDs(gotIDs, tt.want) {
			t.Errorf("NearestOffices(%v, %d, %v) = %v, %v; want %v", tt.p, tt.limit, tt.withinKm, gotIDs, err, tt.want)
		}
	}
	all, err := c.s.NearestOffices(bg, geo.NearQuery{Point: geo.Point{Lat: 20, Lon: 80}, Limit: 100})
	if err != nil || len(all) != 13 {
		t.Fatalf("NearestOffices(limit 100) = %d offices, %v; want every located office (13)", len(all), err)
	}
	for i := 1; i < len(all); i++ {
		if a, b := all[i-1], all[i]; a.DistanceKm > b.DistanceKm || a.DistanceKm == b.DistanceKm && a.Office.ID > b.Office.ID {
			t.Errorf("NearestOffices not nearest first at %d: %d (%v km) before %d (%v km)", i, a.Office.ID, a.DistanceKm, b.Office.ID, b.DistanceKm)
		}
	}
	c.sameOffices(t, "NearestOffices(first)", []postal.PostOffice{*all[0].Office}, []int64{all[0].Office.ID})
}
