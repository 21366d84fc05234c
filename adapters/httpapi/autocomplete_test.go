package httpapi_test

import (
	"net/http"
	"testing"
)

// TestAutocompleteHTTP checks the operation on the real directory: the
// envelope's suggestions, the point, the caching headers and 422s by field.
func TestAutocompleteHTTP(t *testing.T) {
	_, _, h := loadFull(t)
	var d struct {
		Query       string `json:"query"`
		Suggestions []struct {
			Office struct {
				ID         int64   `json:"id"`
				PostOffice string  `json:"post_office"`
				Pincode    string  `json:"pincode"`
				BranchType string  `json:"branch_type"`
				District   *string `json:"district"`
				State      *string `json:"state"`
			} `json:"office"`
			Matched struct {
				Field string `json:"field"`
				Kind  string `json:"kind"`
				Text  string `json:"text"`
				Edits int    `json:"edits"`
			} `json:"matched"`
			DistanceKm *float64 `json:"distance_km"`
		} `json:"suggestions"`
	}
	getOK(t, h, "/api/v1/pincodes/autocomplete?q=conaught+pl&limit=2", &d)
	if len(d.Suggestions) != 2 || d.Query != "conaught pl" {
		t.Fatalf("got %+v, want 2 suggestions for the query", d)
	}
	s := d.Suggestions[0]
	if s.Office.ID != 7 || s.Office.Pincode != "110001" || s.Office.BranchType != "Sub Office" || s.Office.District == nil ||
		s.Matched.Field != "name" || s.Matched.Kind != "fuzzy" || s.Matched.Edits != 1 || s.Matched.Text != "Connaught Place SO" || s.DistanceKm != nil {
		t.Errorf("first suggestion %+v, want Connaught Place SO matched fuzzily by one edit, no distance", s)
	}

	getOK(t, h, "/api/v1/pincodes/autocomplete?q=ramnagar&latitude=18.43&longitude=79.13", &d)
	if len(d.Suggestions) != 10 || d.Suggestions[0].Office.ID != 83706 || d.Suggestions[0].DistanceKm == nil || *d.Suggestions[0].DistanceKm > 50 {
		t.Errorf("ramnagar near Karimnagar: %d suggestions, first %+v", len(d.Suggestions), d.Suggestions[0])
	}

	rec := get(h, "/api/v1/pincodes/autocomplete?q=pune")
	etag := rec.Header().Get("ETag")
	if rec.Code != http.StatusOK || etag == "" || rec.Header().Get("Cache-Control") == "" {
		t.Fatalf("GET = %d, ETag %q, Cache-Control %q", rec.Code, etag, rec.Header().Get("Cache-Control"))
	}
	if rec := get(h, "/api/v1/pincodes/autocomplete?q=pune", "If-None-Match", etag); rec.Code != http.StatusNotModified {
		t.Errorf("If-None-Match: %d, want 304", rec.Code)
	}

	if res := wantError(t, h, http.MethodGet, "/api/v1/pincodes/autocomplete", "", "", http.StatusBadRequest, "bad_request"); len(res.Errors["q"]) == 0 {
		t.Errorf("without q: errors %+v, want one on q", res.Errors)
	}
	for target, field := range map[string]string{
		"/api/v1/pincodes/autocomplete?q=...":                              "q",
		"/api/v1/pincodes/autocomplete?q=0123":                             "q",
		"/api/v1/pincodes/autocomplete?q=pune&limit=0":                     "limit",
		"/api/v1/pincodes/autocomplete?q=pune&limit=51":                    "limit",
		"/api/v1/pincodes/autocomplete?q=pune&limit=x":                     "limit",
		"/api/v1/pincodes/autocomplete?q=pune&latitude=91&longitude=77":    "latitude",
		"/api/v1/pincodes/autocomplete?q=pune&latitude=18":                 "longitude",
		"/api/v1/pincodes/autocomplete?q=pune&longitude=77":                "latitude",
		"/api/v1/pincodes/autocomplete?q=pune&latitude=NaN&longitude=77":   "latitude",
		"/api/v1/pincodes/autocomplete?q=pune&latitude=18&longitude=200.5": "longitude",
	} {
		res := wantError(t, h, http.MethodGet, target, "", "", http.StatusUnprocessableEntity, "validation_failed")
		if len(res.Errors[field]) == 0 {
			t.Errorf("%s: errors %+v, want one on %s", target, res.Errors, field)
		}
	}
}
