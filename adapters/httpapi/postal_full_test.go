package httpapi_test

import (
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/indiapost/snapshot"
	"github.com/pinsight/pinsight/domain/postal"
)

// These tests run on the real data: the embedded snapshot.

// readSnapshotCSV reads a gzipped file of the embedded snapshot with gzip +
// csv (not the reader under test), returning its rows as column-name maps.
func readSnapshotCSV(t *testing.T, name string) []map[string]string {
	t.Helper()
	f, err := snapshot.FS().Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	cr := csv.NewReader(zr)
	header, err := cr.Read()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		row := make(map[string]string, len(header))
		for i, h := range header {
			row[h] = rec[i]
		}
		out = append(out, row)
	}
}

func TestFullDataset(t *testing.T) {
	_, _, h := loadFull(t)
	var d httpapi.DatasetData
	getOK(t, h, "/api/v1/dataset", &d)
	// 784 current LGD districts plus the legacy-only Shahdara, Mahe, Yanam.
	if d.PostOffices != 165625 || d.Pincodes != 19586 || d.States != 36 || d.Districts != 787 || d.Villages != 31766 ||
		!d.LGDCodes || !slices.Equal(d.VillageStates, []string{"West Bengal"}) || d.Version == "" {
		t.Errorf("dataset = %+v", d)
	}
	if d.Source != "embedded" || d.Release == nil || *d.Release != "2025-10-03" || len(d.Files) != 5 ||
		d.Files[2].Name != "lgd_districts.csv.gz" || d.Files[2].Date == nil || *d.Files[2].Date != "2026-10-07" {
		t.Errorf("source %q, release %v, files %+v; want the embedded snapshot of 2025-10-03 with each file's date", d.Source, d.Release, d.Files)
	}
	c := d.Cleaning
	if c.OfficeRows != 165627 || c.DuplicateRows != 2 || c.MalformedRows != 0 || c.InvalidPincodes != 0 || c.DistrictsByAlias != 4 ||
		c.Locations["swapped"] != 792 || c.Locations["reparsed"] != 6 || c.Locations["zero"] != 13 || c.RegionNA != 315 ||
		c.InheritedStateDistrict+c.UnknownStateDistrict != 715 || c.VillageDuplicates != 9239 {
		t.Errorf("cleaning = %+v", c)
	}
}

func TestFullStates(t *testing.T) {
	_, _, h := loadFull(t)
	var list httpapi.StatesData
	getOK(t, h, "/api/v1/states", &list)
	lgd := map[string]string{} // code -> upper-case name
	for _, r := range readSnapshotCSV(t, "lgd_states.csv.gz") {
		lgd[r["state_code"]] = r["state_name"]
	}
	if list.Total != 36 || len(list.States) != 36 {
		t.Fatalf("states = %d, want 36", list.Total)
	}
	var d httpapi.DatasetData
	getOK(t, h, "/api/v1/dataset", &d)
	offices := 0
	for _, s := range list.States {
		if name := lgd[fmt.Sprint(s.ID)]; !strings.EqualFold(name, s.Name) {
			t.Errorf("state %d %q: LGD names it %q", s.ID, s.Name, name)
		}
		if s.DistrictsCount == 0 || s.PincodesCount == 0 || s.PostOfficesCount == 0 {
			t.Errorf("state %+v has empty counts", s)
		}
		offices += s.PostOfficesCount
	}
	if want := d.PostOffices - d.Cleaning.UnknownStateDistrict; offices != want {
		t.Errorf("offices over all states = %d, want %d (all but those of unknown state)", offices, want)
	}
	for ref, want := range map[string]string{"7": "Delhi", "delhi": "Delhi", "DELHI": "Delhi", "19": "West Bengal", "west": "West Bengal", "West%20Bengal": "West Bengal", "Tamil": "Tamil Nadu", "37": "Ladakh"} {
		var s httpapi.StateData
		getOK(t, h, "/api/v1/states/"+ref, &s)
		if s.Name != want {
			t.Errorf("GET /states/%s = %d %q, want %q", ref, s.ID, s.Name, want)
		}
	}
	var delhi httpapi.StateData
	getOK(t, h, "/api/v1/states/7", &delhi)
	if delhi.ID != 7 || delhi.DistrictsCount != 14 { // 13 current + Shahdara (legacy, has offices)
		t.Errorf("Delhi = %+v, want id 7 with 14 districts", delhi)
	}
	res := wantError(t, h, http.MethodGet, "/api/v1/states/Ma", "", "", http.StatusUnprocessableEntity, "validation_failed")
	if got := candidateLabels(t, res); len(res.Errors["state"]) != 1 || !slices.Equal(got, []string{"14 Manipur", "23 Madhya Pradesh", "27 Maharashtra"}) {
		t.Errorf("GET /states/Ma: errors %v, candidates %v, want one message and the three candidates", res.Errors, got)
	}
	wantError(t, h, http.MethodGet, "/api/v1/states/25", "", "", http.StatusNotFound, "not_found")
	wantError(t, h, http.MethodGet, "/api/v1/states/Atlantis", "", "", http.StatusNotFound, "not_found")
}

func TestFullDistricts(t *testing.T) {
	_, _, h := loadFull(t)
	wbWant := map[int]string{}
	for _, r := range readSnapshotCSV(t, "lgd_districts.csv.gz") {
		if r["state_code"] == "19" {
			var code int
			fmt.Sscan(r["district_code"], &code)
			wbWant[code] = r["district_name"]
		}
	}
	var wb httpapi.StateDistrictsData
	getOK(t, h, "/api/v1/states/West%20Bengal/districts", &wb)
	if wb.State != "West Bengal" || wb.Total != len(wbWant) {
		t.Fatalf("West Bengal districts = %s %d, want %d", wb.State, wb.Total, len(wbWant))
	}
	for _, d := range wb.Districts {
		if d.Name != wbWant[d.ID] || d.StateID != 19 {
			t.Errorf("district %d %q (state %d), LGD says %q", d.ID, d.Name, d.StateID, wbWant[d.ID])
		}
	}
	total := 0
	var states httpapi.StatesData
	getOK(t, h, "/api/v1/states", &states)
	for _, s := range states.States {
		var ds httpapi.StateDistrictsData
		getOK(t, h, fmt.Sprintf("/api/v1/states/%d/districts", s.ID), &ds)
		if ds.Total != s.DistrictsCount || len(ds.Districts) != ds.Total {
			t.Errorf("state %d lists %d districts, counts %d", s.ID, ds.Total, s.DistrictsCount)
		}
		total += ds.Total
	}
	if total != 787 {
		t.Errorf("districts over all states = %d, want 787", total)
	}

	alt := func(s string) *string { return &s }
	tests := []struct {
		ref     string
		id      int
		name    string
		altName *string
		stateID int
	}{
		{"303", 303, "North 24 Parganas", alt("24 Paraganas North"), 19},
		{url.PathEscape("24 Paraganas North"), 303, "North 24 Parganas", alt("24 Paraganas North"), 19}, // India Post's spelling
		{"Hoshangabad", 409, "Narmadapuram", alt("Hoshangabad"), 23},
		{"Bagalkot", 524, "Bagalkote", alt("Bagalkot"), 29},
		{"Firozepur", 31, "Ferozepur", alt("Firozepur"), 3},
		{"Konaseema", 747, "Dr. B.R. Ambedkar Konaseema", alt("Konaseema"), 28},
		{"Chhatrapati", 469, "Chhatrapati Sambhajinagar", alt("Aurangabad"), 27},
		{"Shahdara", 671, "Shahdara", nil, 7}, // legacy-only, kept because offices use it
		{"kolkata", 315, "Kolkata", nil, 19},
	}
	for _, tt := range tests {
		var d httpapi.DistrictData
		getOK(t, h, "/api/v1/districts/"+tt.ref, &d)
		if d.ID != tt.id || d.Name != tt.name || !sameOpt(d.AltName, tt.altName) || d.State.ID != tt.stateID || d.PostOfficesCount == 0 {
			t.Errorf("GET /districts/%s = %+v, want %d %q alt %v in state %d", tt.ref, d, tt.id, tt.name, tt.altName, tt.stateID)
		}
	}
	for ref, want := range map[string][]string{
		"Aurangabad": {"189 Aurangabad (Bihar)", "469 Chhatrapati Sambhajinagar (Maharashtra)"},
		"Bilaspur":   {"15 Bilaspur (Himachal Pradesh)", "375 Bilaspur (Chhattisgarh)"},
		"Hamirpur":   {"149 Hamirpur (Uttar Pradesh)", "17 Hamirpur (Himachal Pradesh)"},
		"Nor":        {"303 North 24 Parganas (West Bengal)"}, // "North" itself is a Delhi district
	} {
		res := wantError(t, h, http.MethodGet, "/api/v1/districts/"+ref, "", "", http.StatusUnprocessableEntity, "validation_failed")
		for _, c := range want {
			if got := candidateLabels(t, res); !slices.Contains(got, c) {
				t.Errorf("GET /districts/%s: candidates %v, want %q", ref, got, c)
			}
		}
	}
	wantError(t, h, http.MethodGet, "/api/v1/districts/99999", "", "", http.StatusNotFound, "not_found")

	var p httpapi.DistrictPincodesData
	getOK(t, h, "/api/v1/districts/77/pincodes?per_page=100", &p)
	var d httpapi.DistrictData
	getOK(t, h, "/api/v1/districts/77", &d)
	if p.District != "Central" || p.State != "Delhi" || p.Total != d.PostOfficesCount || len(p.Results) != min(100, p.Total) ||
		p.Meta.LastPage != (p.Total+99)/100 {
		t.Errorf("district 77 pincodes = %s/%s total %d (detail says %d), meta %+v", p.District, p.State, p.Total, d.PostOfficesCount, p.Meta)
	}
	for i := 1; i < len(p.Results); i++ {
		if p.Results[i-1].Pincode > p.Results[i].Pincode {
			t.Fatalf("district pincodes not by pincode: %s before %s", p.Results[i-1].Pincode, p.Results[i].Pincode)
		}
	}
}

func TestFullVillages(t *testing.T) {
	_, _, h := loadFull(t)
	// The villages of each PIN, exact duplicate rows once.
	byPin := map[string]map[string]int{} // pin -> "code name" -> count
	seen := map[string]bool{}
	for _, r := range readSnapshotCSV(t, "lgd_villages_pincode_west_bengal.csv.gz") {
		key := fmt.Sprint(r)
		if seen[key] {
			continue
		}
		seen[key] = true
		if byPin[r["pincode"]] == nil {
			byPin[r["pincode"]] = map[string]int{}
		}
		byPin[r["pincode"]][r["villageCode"]+" "+r["villageNameEnglish"]]++
	}
	largest := ""
	for pin, vs := range byPin {
		if largest == "" || len(vs) > len(byPin[largest]) || len(vs) == len(byPin[largest]) && pin < largest {
			largest = pin
		}
	}
	for _, pin := range []string{largest, "731213", "734001"} {
		want := byPin[pin]
		wantTotal := 0
		for _, n := range want {
			wantTotal += n
		}
		const perPage = 25
		lastPage := max(1, (wantTotal+perPage-1)/perPage)
		got := map[string]int{}
		prev := ""
		for page := 1; page <= lastPage+1; page++ {
			var d httpapi.VillagesData
			getOK(t, h, fmt.Sprintf("/api/v1/pincodes/%s/villages?per_page=%d&page=%d", pin, perPage, page), &d)
			if d.Pincode != pin || d.Meta != (httpapi.Meta{Total: wantTotal, PerPage: perPage, CurrentPage: page, LastPage: lastPage}) {
				t.Fatalf("%s page %d: pincode %s, meta %+v; want total %d, last page %d", pin, page, d.Pincode, d.Meta, wantTotal, lastPage)
			}
			wantLen := min(perPage, max(0, wantTotal-(page-1)*perPage))
			if len(d.Villages) != wantLen {
				t.Fatalf("%s page %d: %d villages, want %d", pin, page, len(d.Villages), wantLen)
			}
			for _, v := range d.Villages {
				got[v.VillageCode+" "+v.VillageName]++
				if k := postal.NameKey(v.VillageName); k < prev {
					t.Fatalf("%s: villages not by name (%q after %q)", pin, k, prev)
				} else {
					prev = k
				}
				if v.StateID != 19 || v.Pincode != pin {
					t.Fatalf("%s: village %+v", pin, v)
				}
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: villages served differ from the file (%d served, %d published)", pin, len(got), len(want))
		}
	}
	t.Logf("largest village list: PIN %s, %d villages", largest, len(byPin[largest]))
	// Outside the file's coverage: 200, empty, last_page 1.
	var d httpapi.VillagesData
	getOK(t, h, "/api/v1/pincodes/110001/villages", &d)
	if len(d.Villages) != 0 || d.Meta != (httpapi.Meta{Total: 0, PerPage: 10, CurrentPage: 1, LastPage: 1}) {
		t.Errorf("villages of 110001 = %d, meta %+v; want none, last_page 1", len(d.Villages), d.Meta)
	}
}

// searchRank classifies an office for a query independently of the store:
// exact < prefix < word, office name and pincode before district (its LGD
// name or India Post's spelling, altNames by district id).
func searchRank(o httpapi.OfficeData, q string, altNames map[int]string) (int, bool) {
	key, digits := postal.OfficeKey(q), ""
	if strings.Trim(q, "0123456789") == "" {
		digits = q
	}
	best := -1
	take := func(r int) {
		if best < 0 || r < best {
			best = r
		}
	}
	if digits != "" && o.Pincode == digits {
		take(0)
	} else if digits != "" && strings.HasPrefix(o.Pincode, digits) {
		take(2)
	}
	if r, ok := postal.MatchRank(postal.OfficeKey(o.PostOffice), key); ok {
		take(2 * r)
	}
	if o.District != nil {
		names := []string{*o.District}
		if o.DistrictID != nil && altNames[*o.DistrictID] != "" {
			names = append(names, altNames[*o.DistrictID])
		}
		for _, n := range names {
			if r, ok := postal.MatchRank(postal.NameKey(n), key); ok {
				take(2*r + 1)
			}
		}
	}
	return best, best >= 0
}

func TestFullSearch(t *testing.T) {
	ds, _, h := loadFull(t)
	altNames := map[int]string{}
	for _, d := range ds.Districts {
		altNames[d.ID] = d.AltName
	}
	// aurangabad, bagalkot and ahmadabad also match districts by India Post's spelling.
	for _, q := range []string{"Siliguri", "bagdogra", "1100", "110001", "darjeeling", "new delhi", "sansad marg", "aurangabad", "bagalkot", "ahmadabad"} {
		// Every office that matches, counted independently.
		wantTotal := 0
		for _, o := range ds.Offices {
			od := httpapi.OfficeData{Pincode: string(o.Pincode), PostOffice: o.Name, District: &o.District, DistrictID: &o.DistrictID}
			if _, ok := searchRank(od, q, altNames); ok {
				wantTotal++
			}
		}
		var all []httpapi.OfficeData
		for page := 1; ; page++ {
			var s httpapi.SearchData
			getOK(t, h, fmt.Sprintf("/api/v1/pincodes/search?q=%s&per_page=100&page=%d", url.QueryEscape(q), page), &s)
			if s.Meta.Total != wantTotal || s.Meta.CurrentPage != page || s.Meta.LastPage != max(1, (wantTotal+99)/100) {
				t.Fatalf("search %q page %d: meta %+v, want total %d", q, page, s.Meta, wantTotal)
			}
			all = append(all, s.Results...)
			if len(s.Results) == 0 || page >= s.Meta.LastPage {
				break
			}
		}
		if len(all) != wantTotal || wantTotal == 0 {
			t.Fatalf("search %q: %d results, want %d (> 0)", q, len(all), wantTotal)
		}
		prev := -1
		for _, o := range all {
			r, ok := searchRank(o, q, altNames)
			if !ok || r < prev {
				t.Fatalf("search %q: %s %q ranks %d (match %v) after rank %d", q, o.Pincode, o.PostOffice, r, ok, prev)
			}
			prev = r
		}
		// A smaller page is a window of the same order.
		var p2 httpapi.SearchData
		getOK(t, h, fmt.Sprintf("/api/v1/pincodes/search?q=%s&per_page=3&page=2", url.QueryEscape(q)), &p2)
		if wantTotal > 3 && (len(p2.Results) == 0 || p2.Results[0].ID != all[3].ID) {
			t.Errorf("search %q page 2 of 3 starts with %v, want %s", q, officeNames(p2.Results), all[3].PostOffice)
		}
	}
	var s httpapi.SearchData
	getOK(t, h, "/api/v1/pincodes/search?q=Siliguri&per_page=2", &s)
	if s.Results[0].PostOffice != "Siliguri HO" {
		t.Errorf("search Siliguri starts with %q, want the exact match Siliguri HO", s.Results[0].PostOffice)
	}
	var v httpapi.VillageSearchData
	getOK(t, h, "/api/v1/villages/search?q=Bolpur&state=19", &v)
	if want := []string{"Bolpur", "Bolpur (P)"}; !slices.Equal(villageNames(v.Villages)[:min(2, len(v.Villages))], want) {
		t.Errorf("village search Bolpur = %q, want %q first (exact, then prefix)", villageNames(v.Villages), want)
	}
	getOK(t, h, "/api/v1/villages/search?q=Bagdogra&district=Darjeeling", &v)
	if want := []string{"Dakshin Bagdogra (Ct)", "Uttar Bagdogra (Ct)"}; !slices.Equal(villageNames(v.Villages), want) {
		t.Errorf("village search Bagdogra in Darjeeling = %q, want the word matches %q", villageNames(v.Villages), want)
	}
	getOK(t, h, "/api/v1/villages/search?q=Bagdogra&state=Delhi", &v)
	if v.Meta.Total != 0 {
		t.Errorf("village search in Delhi = %d, want 0 (the file covers West Bengal)", v.Meta.Total)
	}
}

func TestFullDetailsBatchCaching(t *testing.T) {
	_, _, h := loadFull(t)
	for query, want := range map[string]string{
		"/api/v1/pincodes/110001/details":                             "New Delhi GPO", // two HOs: the first by name
		"/api/v1/pincodes/110001/details?post_office=sansad+marg":     "Sansad Marg HO",
		"/api/v1/pincodes/110001/details?post_office=New+Delhi+G.P.O": "New Delhi GPO",
		"/api/v1/pincodes/734001/details":                             "Siliguri HO",
	} {
		var o httpapi.OfficeData
		getOK(t, h, query, &o)
		if o.PostOffice != want {
			t.Errorf("GET %s = %q, want %q", query, o.PostOffice, want)
		}
	}

	res := apitest.Do(t, h, http.MethodPost, "/api/v1/pincodes/batch", apitest.JSONType, `{"pincodes":["110001","423101","999999","12345","abcdef"]}`)
	var b httpapi.PincodeBatchData
	res.Decode(t, &b)
	if b.Found != 2 || b.NotFound != 1 || b.Invalid != 2 || b.Results[0].Total != 23 {
		t.Errorf("batch = %+v, want 2 found (110001 with 23 offices), 1 not found, 2 invalid", b)
	}

	first := get(h, "/api/v1/pincodes/110001")
	var d httpapi.DatasetData
	getOK(t, h, "/api/v1/dataset", &d)
	etag := first.Header().Get("ETag")
	if !strings.HasPrefix(etag, `W/"`+d.Version+`-`) || first.Header().Get("Cache-Control") != "public, max-age=300" {
		t.Errorf("ETag %q, Cache-Control %q; want W/\"%s-<counts version>\" and 5 minutes", etag, first.Header().Get("Cache-Control"), d.Version)
	}
	if again := get(h, "/api/v1/pincodes/110001", "If-None-Match", etag); again.Code != http.StatusNotModified || again.Body.Len() != 0 {
		t.Errorf("If-None-Match = %d with %d bytes, want 304", again.Code, again.Body.Len())
	}

	for target, status := range map[string]int{
		"/api/v1/pincodes/11000":                      http.StatusUnprocessableEntity,
		"/api/v1/pincodes/abcdef":                     http.StatusUnprocessableEntity,
		"/api/v1/pincodes/999999":                     http.StatusNotFound,
		"/api/v1/pincodes/734001/villages?per_page=0": http.StatusUnprocessableEntity,
		"/api/v1/pincodes/734001/villages?page=-1":    http.StatusUnprocessableEntity,
		"/api/v1/districts/77/pincodes?per_page=0":    http.StatusUnprocessableEntity,
		"/api/v1/pincodes/search?q=delhi&page=-1":     http.StatusUnprocessableEntity,
	} {
		if res := apitest.Do(t, h, http.MethodGet, target, "", ""); res.Status != status || res.Success || res.Code == "" {
			t.Errorf("GET %s = %d %q, want %d in the envelope", target, res.Status, res.Code, status)
		}
	}
}
