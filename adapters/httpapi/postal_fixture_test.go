package httpapi_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/postal"
)

// These tests run on the hand-written fixture files (no real data needed):
// see ../indiapost/testdata and the cleaning tests beside them.

func TestPostalWithoutDataAnswers503(t *testing.T) {
	h := postalHandler(memory.NewPostalStore(nil))
	for _, target := range []string{
		"/api/v1/pincodes/110001", "/api/v1/pincodes/110001/details", "/api/v1/pincodes/110001/villages",
		"/api/v1/pincodes/search?q=delhi", "/api/v1/villages/search?q=bagdogra", "/api/v1/states", "/api/v1/states/7",
		"/api/v1/states/7/districts", "/api/v1/districts/77", "/api/v1/districts/77/pincodes", "/api/v1/dataset",
	} {
		res := wantError(t, h, http.MethodGet, target, "", "", http.StatusServiceUnavailable, "unavailable")
		if !strings.Contains(res.Message, "pinsight import") {
			t.Errorf("GET %s: message %q does not say how to load data (pinsight import)", target, res.Message)
		}
	}
	for _, path := range []string{"/api/v1/pincodes/batch", "/api/v1/pincodes/validate"} {
		res := wantError(t, h, http.MethodPost, path, apitest.JSONType, `{"pincodes":["110001"]}`, http.StatusServiceUnavailable, "unavailable")
		if !strings.Contains(res.Message, "pinsight import") {
			t.Errorf("POST %s: message %q does not name pinsight import", path, res.Message)
		}
	}
}

func officeNames(offices []httpapi.OfficeData) []string {
	out := make([]string, len(offices))
	for i, o := range offices {
		out[i] = o.PostOffice
	}
	return out
}

func TestPincodeLookupFixture(t *testing.T) {
	h := fixtureHandler(t)
	var d httpapi.PincodeData
	getOK(t, h, "/api/v1/pincodes/110001", &d)
	want := []string{"Baroda House SO", "Connaught Place S.O", "New Delhi G.P.O", "Parliament House S.O.", "Supreme Court SO"}
	if d.Pincode != "110001" || d.Total != 5 || !slices.Equal(officeNames(d.PostOffices), want) {
		t.Fatalf("110001 = %s, %d offices %q; want %q (by name, suffix ignored)", d.Pincode, d.Total, officeNames(d.PostOffices), want)
	}
	byName := map[string]httpapi.OfficeData{}
	for _, o := range d.PostOffices {
		byName[o.PostOffice] = o
	}
	cp := byName["Connaught Place S.O"]
	code, err := digipin.Encode(28.6315, 77.2167)
	if err != nil {
		t.Fatal(err)
	}
	if cp.Location == nil || cp.Location.Latitude != 28.6315 || cp.Location.Longitude != 77.2167 ||
		cp.LocationQuality != "corrected" || cp.Digipin == nil || *cp.Digipin != code {
		t.Errorf("swapped office: location %+v, quality %q, digipin %v; want 28.6315,77.2167 corrected %s", cp.Location, cp.LocationQuality, cp.Digipin, code)
	}
	if cp.BranchType != "Sub Office" || cp.DeliveryStatus != "Delivery" || cp.Circle != "Delhi Circle" || cp.Division != "New Delhi Central Division" ||
		cp.Region == nil || *cp.Region != "DivReportingCircle" || cp.ReviewsCount != 0 || cp.LikesCount != 0 {
		t.Errorf("office record %+v", cp)
	}
	ph := byName["Parliament House S.O."]
	if ph.Region != nil || ph.Location != nil || ph.Digipin != nil || ph.LocationQuality != "missing" ||
		ph.State == nil || *ph.State != "Delhi" || ph.StateID == nil || *ph.StateID != 7 ||
		ph.District == nil || *ph.District != "New Delhi" || ph.DistrictID == nil || *ph.DistrictID != 79 {
		t.Errorf("NA office (region and location null, state inherited): %+v", ph)
	}
	if gpo := byName["New Delhi G.P.O"]; gpo.BranchType != "Head Office" {
		t.Errorf("HO branch_type = %q, want Head Office", gpo.BranchType)
	}
	getOK(t, h, "/api/v1/pincodes/110025", &d)
	for _, o := range d.PostOffices {
		if o.PostOffice == "Zakir Nagar B.O" && (o.State != nil || o.StateID != nil || o.District != nil || o.DistrictID != nil) {
			t.Errorf("unknown region must be null: %+v", o)
		}
	}
	getOK(t, h, "/api/v1/pincodes/431002", &d)
	if d.Total != 3 {
		t.Errorf("431002 (exact duplicate once) = %d offices %q, want 3", d.Total, officeNames(d.PostOffices))
	}
}

func TestPincodeDetailsFixture(t *testing.T) {
	h := fixtureHandler(t)
	tests := []struct{ query, want string }{
		{"/api/v1/pincodes/110001/details", "New Delhi G.P.O"}, // the head office
		{"/api/v1/pincodes/110002/details", "Darya Ganj S.O"},  // no HO: the sub office
		{"/api/v1/pincodes/824102/details", "Bhawanipur B.O"},  // only branches: the first by name
		{"/api/v1/pincodes/110001/details?post_office=baroda%20house", "Baroda House SO"},
		{"/api/v1/pincodes/110001/details?post_office=Baroda+House+S.O.", "Baroda House SO"},
		{"/api/v1/pincodes/110001/details?post_office=BARODA+HOUSE+B.O", "Baroda House SO"},
		{"/api/v1/pincodes/110001/details?post_office=New+Delhi+GPO", "New Delhi G.P.O"},
		{"/api/v1/pincodes/110001/details?post_office=parliament+house", "Parliament House S.O."},
		{"/api/v1/pincodes/431002/details?post_office=Karanj+B.O", "karanj bo"},
	}
	for _, tt := range tests {
		var o httpapi.OfficeData
		getOK(t, h, tt.query, &o)
		if o.PostOffice != tt.want {
			t.Errorf("GET %s = %q, want %q", tt.query, o.PostOffice, tt.want)
		}
	}
	res := wantError(t, h, http.MethodGet, "/api/v1/pincodes/110001/details?post_office=Nowhere", "", "", http.StatusNotFound, "not_found")
	if !strings.Contains(res.Message, "Nowhere") || !strings.Contains(res.Message, "110001") {
		t.Errorf("404 message %q should name the office and the pincode", res.Message)
	}
	wantError(t, h, http.MethodGet, "/api/v1/pincodes/999999/details", "", "", http.StatusNotFound, "not_found")
}

// sameOpt compares optional strings by value.
func sameOpt(a, b *string) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

func villageNames(vs []httpapi.VillageData) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.VillageName
	}
	return out
}

func TestPincodeVillagesFixture(t *testing.T) {
	h := fixtureHandler(t)
	tests := []struct {
		query string
		names []string
		meta  httpapi.Meta
	}{
		{"/api/v1/pincodes/734001/villages?per_page=5", []string{"Bagdogra", "Bagdogra Tea Garden", "Champasari", "Dabgram", "Fulbari"}, httpapi.Meta{Total: 12, PerPage: 5, CurrentPage: 1, LastPage: 3}},
		{"/api/v1/pincodes/734001/villages?per_page=5&page=3", []string{"Panchkulguri", "Salbari"}, httpapi.Meta{Total: 12, PerPage: 5, CurrentPage: 3, LastPage: 3}},
		{"/api/v1/pincodes/734001/villages?per_page=5&page=4", []string{}, httpapi.Meta{Total: 12, PerPage: 5, CurrentPage: 4, LastPage: 3}},
		{"/api/v1/pincodes/734001/villages", nil, httpapi.Meta{Total: 12, PerPage: 10, CurrentPage: 1, LastPage: 2}},
		{"/api/v1/pincodes/743101/villages", []string{"Duttapukur", "Kadambagachhi", "Nabapally"}, httpapi.Meta{Total: 3, PerPage: 10, CurrentPage: 1, LastPage: 1}},
		// A PIN outside the village file's coverage: 200, empty, last_page 1.
		{"/api/v1/pincodes/110001/villages", []string{}, httpapi.Meta{Total: 0, PerPage: 10, CurrentPage: 1, LastPage: 1}},
		{"/api/v1/pincodes/110001/villages?page=2", []string{}, httpapi.Meta{Total: 0, PerPage: 10, CurrentPage: 2, LastPage: 1}},
		// A PIN the village file has but the directory does not.
		{"/api/v1/pincodes/731213/villages", []string{"Kankalitala"}, httpapi.Meta{Total: 1, PerPage: 10, CurrentPage: 1, LastPage: 1}},
	}
	for _, tt := range tests {
		var d httpapi.VillagesData
		res := getOK(t, h, tt.query, &d)
		if d.Meta != tt.meta || (tt.names != nil && !slices.Equal(villageNames(d.Villages), tt.names)) {
			t.Errorf("GET %s = %q %+v, want %q %+v", tt.query, villageNames(d.Villages), d.Meta, tt.names, tt.meta)
		}
		if !strings.Contains(string(res.Data), `"villages":[`) {
			t.Errorf("GET %s: villages must be a list, even empty: %s", tt.query, res.Data)
		}
	}
	var d httpapi.VillagesData
	getOK(t, h, "/api/v1/pincodes/734001/villages?per_page=1", &d)
	if v := d.Villages[0]; v.VillageCode != "306701" || v.District != "Darjeeling" || v.DistrictID != 309 || v.State != "West Bengal" || v.StateID != 19 || v.Subdistrict != "Phansidewa" || v.Pincode != "734001" {
		t.Errorf("village record %+v", v)
	}
}

func TestStatesFixture(t *testing.T) {
	h := fixtureHandler(t)
	var list httpapi.StatesData
	getOK(t, h, "/api/v1/states", &list)
	if list.Total != 14 || len(list.States) != 14 || list.States[0].Name != "Andhra Pradesh" || list.States[13].Name != "West Bengal" {
		t.Fatalf("states = %d %+v, want 14 by name", list.Total, list.States)
	}
	for _, ref := range []string{"7", "delhi", "DELHI", "Del"} {
		var s httpapi.StateData
		getOK(t, h, "/api/v1/states/"+ref, &s)
		want := httpapi.StateData{ID: 7, Name: "Delhi", DistrictsCount: 5, PincodesCount: 5, PostOfficesCount: 15}
		if s != want {
			t.Errorf("GET /states/%s = %+v, want %+v", ref, s, want)
		}
	}
	// q matches the start of the name or of any word, as search does.
	for q, want := range map[string][]string{
		"pradesh":     {"Andhra Pradesh", "Arunachal Pradesh", "Himachal Pradesh", "Uttar Pradesh"},
		"PRAD":        {"Andhra Pradesh", "Arunachal Pradesh", "Himachal Pradesh", "Uttar Pradesh"},
		"bengal":      {"West Bengal"},
		"daman diu":   {"Dadra and Nagar Haveli and Daman and Diu"},
		"andhra pr":   {"Andhra Pradesh"},
		"desh":        nil, // inside a word: no match
		"west punjab": nil, // every word must match
	} {
		getOK(t, h, "/api/v1/states?q="+url.QueryEscape(q), &list)
		var names []string
		for _, s := range list.States {
			names = append(names, s.Name)
		}
		if list.Total != len(want) || !slices.Equal(names, want) {
			t.Errorf("GET /states?q=%s = %d %q, want %q", q, list.Total, names, want)
		}
	}
	res := wantError(t, h, http.MethodGet, "/api/v1/states/D", "", "", http.StatusUnprocessableEntity, "validation_failed")
	if got := candidateLabels(t, res); len(res.Errors["state"]) != 1 ||
		!slices.Equal(got, []string{"38 Dadra and Nagar Haveli and Daman and Diu", "7 Delhi"}) {
		t.Errorf("ambiguous prefix: errors %v, candidates %v; want one message under state and both candidates as objects (38, 7)", res.Errors, got)
	}
	var dnh httpapi.StateData
	getOK(t, h, "/api/v1/states/THE%20DADRA%20AND%20NAGAR%20HAVELI%20AND%20DAMAN%20AND%20DIU", &dnh)
	if dnh.ID != 38 {
		t.Errorf("GET /states/THE DADRA... (India Post's spelling) = %+v, want 38", dnh)
	}
	wantError(t, h, http.MethodGet, "/api/v1/states/99", "", "", http.StatusNotFound, "not_found")
	wantError(t, h, http.MethodGet, "/api/v1/states/Atlantis", "", "", http.StatusNotFound, "not_found")

	var ds httpapi.StateDistrictsData
	getOK(t, h, "/api/v1/states/7/districts", &ds)
	var names []string
	for _, d := range ds.Districts {
		names = append(names, d.Name)
	}
	if want := []string{"Central", "Central North", "New Delhi", "Shahdara", "Unknownpur"}; ds.State != "Delhi" || ds.Total != 5 || !slices.Equal(names, want) {
		t.Errorf("Delhi's districts = %s %d %q, want %q", ds.State, ds.Total, names, want)
	}
	getOK(t, h, "/api/v1/states/delhi/districts?q=cen", &ds)
	if ds.Total != 2 {
		t.Errorf("Delhi's districts starting with cen = %d, want 2", ds.Total)
	}
	for q, want := range map[string][]string{"north": {"Central North"}, "delhi": {"New Delhi"}, "c n": {"Central North"}, "hdara": nil} {
		getOK(t, h, "/api/v1/states/delhi/districts?q="+url.QueryEscape(q), &ds)
		names = nil
		for _, d := range ds.Districts {
			names = append(names, d.Name)
		}
		if ds.Total != len(want) || !slices.Equal(names, want) {
			t.Errorf("Delhi's districts matching %q = %q, want %q", q, names, want)
		}
	}
	wantError(t, h, http.MethodGet, "/api/v1/states/D/districts", "", "", http.StatusUnprocessableEntity, "validation_failed")
}

func TestDistrictsFixture(t *testing.T) {
	h := fixtureHandler(t)
	alt := func(s string) *string { return &s }
	tests := []struct {
		ref     string
		id      int
		name    string
		altName *string
		state   httpapi.StateRef
	}{
		{"303", 303, "North 24 Parganas", alt("24 Paraganas North"), httpapi.StateRef{ID: 19, Name: "West Bengal"}},
		{"north%2024%20parganas", 303, "North 24 Parganas", alt("24 Paraganas North"), httpapi.StateRef{ID: 19, Name: "West Bengal"}},
		{"bagalkot", 524, "Bagalkote", alt("Bagalkot"), httpapi.StateRef{ID: 29, Name: "Karnataka"}}, // India Post's spelling
		{"Shahd", 671, "Shahdara", nil, httpapi.StateRef{ID: 7, Name: "Delhi"}},
		{"Kolkata", 315, "Kolkata", nil, httpapi.StateRef{ID: 19, Name: "West Bengal"}},
	}
	for _, tt := range tests {
		var d httpapi.DistrictData
		getOK(t, h, "/api/v1/districts/"+tt.ref, &d)
		if d.ID != tt.id || d.Name != tt.name || d.State != tt.state || !sameOpt(d.AltName, tt.altName) {
			t.Errorf("GET /districts/%s = %+v, want %d %q alt %v in %+v", tt.ref, d, tt.id, tt.name, tt.altName, tt.state)
		}
	}
	for ref, want := range map[string][]string{
		"Hamirpur":   {"149 Hamirpur (Uttar Pradesh)", "17 Hamirpur (Himachal Pradesh)"},
		"Bilaspur":   {"15 Bilaspur (Himachal Pradesh)", "375 Bilaspur (Chhattisgarh)"},
		"Aurangabad": {"189 Aurangabad (Bihar)", "469 Chhatrapati Sambhajinagar (Maharashtra)"},
		"Cent":       {"77 Central (Delhi)", "796 Central North (Delhi)"},
	} {
		res := wantError(t, h, http.MethodGet, "/api/v1/districts/"+ref, "", "", http.StatusUnprocessableEntity, "validation_failed")
		for _, c := range want {
			if got := candidateLabels(t, res); !slices.Contains(got, c) {
				t.Errorf("GET /districts/%s: candidates %v, want %q", ref, got, c)
			}
		}
	}
	wantError(t, h, http.MethodGet, "/api/v1/districts/9999", "", "", http.StatusNotFound, "not_found")

	var p httpapi.DistrictPincodesData
	getOK(t, h, "/api/v1/districts/189/pincodes?per_page=4", &p)
	if want := []string{"Amba B.O", "Aurangabad BH HO", "Barun B.O", "Deo BO"}; p.District != "Aurangabad" || p.State != "Bihar" || p.Total != 19 ||
		p.Meta != (httpapi.Meta{Total: 19, PerPage: 4, CurrentPage: 1, LastPage: 5}) || !slices.Equal(officeNames(p.Results), want) {
		t.Errorf("district pincodes = %s/%s %d %+v %q, want %q", p.District, p.State, p.Total, p.Meta, officeNames(p.Results), want)
	}
	getOK(t, h, "/api/v1/districts/189/pincodes?per_page=4&page=5", &p)
	if len(p.Results) != 3 || p.Results[0].Pincode != "824102" {
		t.Errorf("last page = %q, want the last 3 offices of 824102", officeNames(p.Results))
	}
	getOK(t, h, "/api/v1/districts/189/pincodes?per_page=4&page=6", &p)
	if len(p.Results) != 0 || p.Meta.LastPage != 5 || p.Meta.CurrentPage != 6 {
		t.Errorf("beyond the last page = %q %+v, want empty", officeNames(p.Results), p.Meta)
	}
	getOK(t, h, "/api/v1/districts/Kolkata/pincodes", &p)
	if len(p.Results) != 0 || p.Meta != (httpapi.Meta{Total: 0, PerPage: 10, CurrentPage: 1, LastPage: 1}) {
		t.Errorf("district without offices = %q %+v, want empty, last_page 1", officeNames(p.Results), p.Meta)
	}
}

func TestSearchFixture(t *testing.T) {
	h := fixtureHandler(t)
	var s httpapi.SearchData
	getOK(t, h, "/api/v1/pincodes/search?q=Siliguri", &s)
	// exact ("Siliguri H.O"), then prefix, then word match.
	if want := []string{"Siliguri H.O", "Siliguri Junction SO", "New Siliguri B.O"}; !slices.Equal(officeNames(s.Results), want) || s.Meta.Total != 3 {
		t.Errorf("search Siliguri = %q %+v, want %q", officeNames(s.Results), s.Meta, want)
	}
	getOK(t, h, "/api/v1/pincodes/search?q=7340&per_page=4&page=3", &s)
	if s.Meta != (httpapi.Meta{Total: 9, PerPage: 4, CurrentPage: 3, LastPage: 3}) || len(s.Results) != 1 || s.Results[0].Pincode != "734014" {
		t.Errorf("search 7340 page 3 = %q %+v, want the 734014 office alone", officeNames(s.Results), s.Meta)
	}
	getOK(t, h, "/api/v1/pincodes/search?q=734001", &s)
	if s.Meta.Total != 8 {
		t.Errorf("search 734001 = %d results, want its 8 offices", s.Meta.Total)
	}
	getOK(t, h, "/api/v1/pincodes/search?q=darjeeling", &s)
	if s.Meta.Total != 9 {
		t.Errorf("search darjeeling (district) = %d results, want 9", s.Meta.Total)
	}
	getOK(t, h, "/api/v1/pincodes/search?q=zzzz", &s)
	if s.Meta != (httpapi.Meta{Total: 0, PerPage: 10, CurrentPage: 1, LastPage: 1}) || s.Results == nil {
		t.Errorf("search without match = %v %+v, want [] and last_page 1", s.Results, s.Meta)
	}

	var v httpapi.VillageSearchData
	for _, q := range []string{"q=bagdogra", "q=Bagdogra&state=19", "q=bagdogra&state=West+Bengal&district=darj"} {
		getOK(t, h, "/api/v1/villages/search?"+q, &v)
		if want := []string{"Bagdogra", "Bagdogra Tea Garden", "Lower Bagdogra"}; !slices.Equal(villageNames(v.Villages), want) {
			t.Errorf("village search %s = %q, want %q", q, villageNames(v.Villages), want)
		}
	}
	getOK(t, h, "/api/v1/villages/search?q=bagdogra&district=303", &v)
	if len(v.Villages) != 0 || v.Meta.Total != 0 {
		t.Errorf("village search in another district = %q, want none", villageNames(v.Villages))
	}
	getOK(t, h, "/api/v1/villages/search?q=bagdogra&per_page=2&page=2", &v)
	if v.Meta != (httpapi.Meta{Total: 3, PerPage: 2, CurrentPage: 2, LastPage: 2}) || !slices.Equal(villageNames(v.Villages), []string{"Lower Bagdogra"}) {
		t.Errorf("village search page 2 = %q %+v", villageNames(v.Villages), v.Meta)
	}
	wantError(t, h, http.MethodGet, "/api/v1/villages/search?q=bagdogra&state=Atlantis", "", "", http.StatusNotFound, "not_found")
	wantError(t, h, http.MethodGet, "/api/v1/villages/search?q=bagdogra&district=Hamirpur", "", "", http.StatusUnprocessableEntity, "validation_failed")
}

func TestPincodeBatchFixture(t *testing.T) {
	h := fixtureHandler(t)
	res := apitest.Do(t, h, http.MethodPost, "/api/v1/pincodes/batch", apitest.JSONType, `{"pincodes":["110001","999999","11000a"," 734014 ","000000"]}`)
	var b httpapi.PincodeBatchData
	res.Decode(t, &b)
	if res.Status != http.StatusOK || b.Total != 5 || b.Found != 2 || b.NotFound != 2 || b.Invalid != 1 {
		t.Fatalf("batch = %d %+v, want 2 found, 2 not found, 1 invalid", res.Status, b)
	}
	wantStatus := []string{"found", "not_found", "invalid", "found", "not_found"}
	for i, r := range b.Results {
		if r.Status != wantStatus[i] {
			t.Errorf("item %d (%q) = %q, want %q", i, r.Pincode, r.Status, wantStatus[i])
		}
	}
	if r := b.Results[0]; r.Pincode != "110001" || r.Total != 5 || len(r.PostOffices) != 5 || len(r.Errors) != 0 {
		t.Errorf("found item = %+v", r)
	}
	if r := b.Results[2]; r.Pincode != "11000a" || len(r.PostOffices) != 0 || len(r.Errors) != 1 {
		t.Errorf("invalid item = %+v, want the input echoed with an error", r)
	}

	res = apitest.Do(t, h, http.MethodPost, "/api/v1/pincodes/validate", apitest.JSONType, `{"pincodes":["110001","999999","11000a","011001"]}`)
	var v httpapi.PincodeValidateData
	res.Decode(t, &v)
	if res.Status != http.StatusOK || v.Total != 4 || v.Valid != 3 || v.Exists != 1 {
		t.Fatalf("validate = %d %+v, want 3 valid, 1 existing", res.Status, v)
	}
	for _, i := range []int{1, 3} {
		if r := v.Results[i]; !r.Valid || r.Exists || r.Reason == nil || *r.Reason != "no post office has this pincode" {
			t.Errorf("valid but unknown = %+v, want the not-found reason", r)
		}
	}
	if r := v.Results[2]; r.Valid || r.Exists || r.Reason == nil {
		t.Errorf("invalid = %+v, want a reason", r)
	}
	if r := v.Results[0]; !r.Valid || !r.Exists || r.Reason != nil {
		t.Errorf("existing = %+v, want no reason", r)
	}

	pins := make([]string, 101)
	for i := range pins {
		pins[i] = fmt.Sprintf(`"%d"`, 110001+i)
	}
	big := `{"pincodes":[` + strings.Join(pins, ",") + `]}`
	full := `{"pincodes":[` + strings.Join(pins[:100], ",") + `]}`
	for _, path := range []string{"/api/v1/pincodes/batch", "/api/v1/pincodes/validate"} {
		wantError(t, h, http.MethodPost, path, apitest.JSONType, big, http.StatusRequestEntityTooLarge, "payload_too_large")
		if res := apitest.Do(t, h, http.MethodPost, path, apitest.JSONType, full); res.Status != http.StatusOK {
			t.Errorf("POST %s with 100 pincodes = %d %s, want 200", path, res.Status, res.Message)
		}
		wantError(t, h, http.MethodPost, path, apitest.FormType, "pincodes=110001", http.StatusUnsupportedMediaType, "unsupported_media_type")
		wantError(t, h, http.MethodPost, path, apitest.JSONType, `{"pincodes":`, http.StatusBadRequest, "bad_request")
		wantError(t, h, http.MethodPost, path, apitest.JSONType, `{"pincodes":[]}`, http.StatusUnprocessableEntity, "validation_failed")
		wantError(t, h, http.MethodPost, path, apitest.JSONType, `{}`, http.StatusBadRequest, "bad_request")
	}
}

func TestPostalBadInputFixture(t *testing.T) {
	h := fixtureHandler(t)
	tests := []struct {
		target string
		status int
		code   string
		field  string
	}{
		{"/api/v1/pincodes/11000", http.StatusUnprocessableEntity, "validation_failed", "pincode"},
		{"/api/v1/pincodes/1100011", http.StatusUnprocessableEntity, "validation_failed", "pincode"},
		{"/api/v1/pincodes/abcdef", http.StatusUnprocessableEntity, "validation_failed", "pincode"},
		{"/api/v1/pincodes/011001", http.StatusNotFound, "not_found", ""}, // six digits: not found, not invalid
		{"/api/v1/pincodes/000000", http.StatusNotFound, "not_found", ""},
		{"/api/v1/pincodes/000000/details", http.StatusNotFound, "not_found", ""},
		{"/api/v1/pincodes/00000", http.StatusUnprocessableEntity, "validation_failed", "pincode"},
		{"/api/v1/pincodes/11000/details", http.StatusUnprocessableEntity, "validation_failed", "pincode"},
		{"/api/v1/pincodes/abcdef/villages", http.StatusUnprocessableEntity, "validation_failed", "pincode"},
		{"/api/v1/pincodes/999999", http.StatusNotFound, "not_found", ""},
		{"/api/v1/pincodes/734001/villages?per_page=0", http.StatusUnprocessableEntity, "validation_failed", "per_page"},
		{"/api/v1/pincodes/734001/villages?per_page=101", http.StatusUnprocessableEntity, "validation_failed", "per_page"},
		{"/api/v1/pincodes/734001/villages?page=-1", http.StatusUnprocessableEntity, "validation_failed", "page"},
		{"/api/v1/pincodes/734001/villages?page=0", http.StatusUnprocessableEntity, "validation_failed", "page"},
		{"/api/v1/districts/189/pincodes?per_page=0", http.StatusUnprocessableEntity, "validation_failed", "per_page"},
		{"/api/v1/districts/189/pincodes?page=-1", http.StatusUnprocessableEntity, "validation_failed", "page"},
		{"/api/v1/pincodes/search?q=delhi&per_page=0", http.StatusUnprocessableEntity, "validation_failed", "per_page"},
		{"/api/v1/pincodes/search?q=delhi&page=-1", http.StatusUnprocessableEntity, "validation_failed", "page"},
		{"/api/v1/villages/search?q=bagdogra&per_page=0", http.StatusUnprocessableEntity, "validation_failed", "per_page"},
		{"/api/v1/pincodes/search?q=0110", http.StatusUnprocessableEntity, "validation_failed", "q"},
		{"/api/v1/pincodes/search?q=...", http.StatusUnprocessableEntity, "validation_failed", "q"},
		{"/api/v1/pincodes/search", http.StatusBadRequest, "bad_request", "q"},
		{"/api/v1/villages/search", http.StatusBadRequest, "bad_request", "q"},
	}
	for _, tt := range tests {
		res := wantError(t, h, http.MethodGet, tt.target, "", "", tt.status, tt.code)
		if tt.field != "" && len(res.Errors[tt.field]) == 0 {
			t.Errorf("GET %s: errors %v, want messages on %q", tt.target, res.Errors, tt.field)
		}
	}
}

func TestPostalCachingFixture(t *testing.T) {
	res, err := loadFixtureDataset()
	if err != nil {
		t.Fatal(err)
	}
	store := memory.NewPostalStore(res)
	h := postalHandler(store)
	first := get(h, "/api/v1/pincodes/110001")
	etag := first.Header().Get("ETag")
	// Office records carry review counts: 5 minutes; the rest a day.
	if first.Code != http.StatusOK || etag == "" || first.Header().Get("Cache-Control") != "public, max-age=300" {
		t.Fatalf("GET = %d, ETag %q, Cache-Control %q; want 200 with both", first.Code, etag, first.Header().Get("Cache-Control"))
	}
	for target, maxAge := range map[string]string{"/api/v1/pincodes/110001": "public, max-age=300", "/api/v1/states": "public, max-age=86400",
		"/api/v1/districts/189/pincodes?page=2": "public, max-age=300"} {
		fresh := get(h, target)
		tag := fresh.Header().Get("ETag")
		again := get(h, target, "If-None-Match", tag)
		if fresh.Header().Get("Cache-Control") != maxAge || again.Code != http.StatusNotModified || again.Body.Len() != 0 || again.Header().Get("ETag") != tag {
			t.Errorf("GET %s: Cache-Control %q (want %q); with If-None-Match = %d, %d bytes; want 304, empty",
				target, fresh.Header().Get("Cache-Control"), maxAge, again.Code, again.Body.Len())
		}
	}
	if other := get(h, "/api/v1/pincodes/110001", "If-None-Match", `W/"other"`); other.Code != http.StatusOK {
		t.Errorf("GET with another ETag = %d, want 200", other.Code)
	}
	if star := get(h, "/api/v1/states", "If-None-Match", "*"); star.Code != http.StatusNotModified {
		t.Errorf("GET with If-None-Match * = %d, want 304", star.Code)
	}
	// Errors are never cacheable.
	for _, target := range []string{"/api/v1/pincodes/999999", "/api/v1/pincodes/12345", "/api/v1/states/nowhere"} {
		if e := get(h, target); e.Code < 400 || e.Header().Get("ETag") != "" || e.Header().Get("Cache-Control") != "" {
			t.Errorf("GET %s = %d with ETag %q, Cache-Control %q; want an error without cache headers",
				target, e.Code, e.Header().Get("ETag"), e.Header().Get("Cache-Control"))
		}
	}
	// Another dataset, another ETag: the old one no longer matches.
	res.Offices = res.Offices[1:]
	store.Replace(res)
	after := get(h, "/api/v1/pincodes/110001", "If-None-Match", etag)
	if after.Code != http.StatusOK || after.Header().Get("ETag") == etag {
		t.Errorf("after a reload: %d, ETag %q; want 200 with a new ETag", after.Code, after.Header().Get("ETag"))
	}
}

func TestDatasetFixture(t *testing.T) {
	h := fixtureHandler(t)
	var d httpapi.DatasetData
	getOK(t, h, "/api/v1/dataset", &d)
	if d.PostOffices != 64 || d.Pincodes != 24 || d.States != 14 || d.Villages != 16 || !d.LGDCodes ||
		!slices.Equal(d.VillageStates, []string{"West Bengal"}) || d.Licence == "" || !strings.Contains(d.Attribution, "GODL") {
		t.Errorf("dataset = %+v", d)
	}
	if d.Source != "files" || d.Release != nil || len(d.Files) != 5 || d.Files[0].Role != "directory" ||
		d.Files[0].Name != "all_india_pincode_directory.csv" || d.Files[0].Date != nil || d.Files[0].Rows != 66 || len(d.Files[0].SHA256) != 64 {
		t.Errorf("source %q, release %v, files %+v; want the five fixture files, no release date", d.Source, d.Release, d.Files)
	}
	c := d.Cleaning
	if c.OfficeRows != 68 || c.DuplicateRows != 1 || c.MalformedRows != 2 || c.InvalidPincodes != 1 || c.Locations["swapped"] != 1 {
		t.Errorf("cleaning = %+v", c)
	}
}

// TestDatasetUnknownSource serves a dataset whose source was not recorded
// (a database imported before sources were): "unknown", a null release and
// an empty list of files, never null.
func TestDatasetUnknownSource(t *testing.T) {
	ds, err := loadFixtureDataset()
	if err != nil {
		t.Fatal(err)
	}
	ds.Source = postal.Source{}
	rec := get(postalHandler(memory.NewPostalStore(ds)), "/api/v1/dataset")
	for _, want := range []string{`"source":"unknown"`, `"release":null`, `"files":[]`, `"licence":"GODL-India"`} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("GET /dataset = %d %s; want %s", rec.Code, rec.Body, want)
		}
	}
}
