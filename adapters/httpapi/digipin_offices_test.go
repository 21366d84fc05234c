package httpapi_test

import (
	"net/http"
	"net/url"
	"slices"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/ports/porttest"
)

// TestDigipinEncodePrecision: a precision gives the prefix, grouped like a
// full code, with its level's bounds; none keeps the answer as it was; out
// of range is 422 on precision, as JSON and as a form.
func TestDigipinEncodePrecision(t *testing.T) {
	h := apitest.NewHandler(t, httpapi.Routes{})
	tests := []struct {
		precision, want string
		cellDeg         float64
	}{
		{"1", "3", 9}, {"3", "39J", 0.5625}, {"5", "39J-49", 0.03515625}, {"6", "39J-49L", 0.0087890625}, {"10", "39J-49L-L8T4", 36.0 / (1 << 20)},
	}
	for _, tt := range tests {
		for _, req := range [][2]string{
			{apitest.JSONType, `{"latitude":28.622788,"longitude":77.213033,"precision":` + tt.precision + `}`},
			{apitest.FormType, `latitude=28.622788&longitude=77.213033&precision=` + tt.precision},
		} {
			res := apitest.Do(t, h, http.MethodPost, "/api/v1/digipin/encode", req[0], req[1])
			var d httpapi.EncodeData
			res.Decode(t, &d)
			if res.Status != http.StatusOK || d.Digipin != tt.want || d.Precision == nil || d.Bounds == nil {
				t.Fatalf("precision %s (%s) = %d %+v, want %s with precision and bounds", tt.precision, req[0], res.Status, d, tt.want)
			}
			b := d.Bounds
			if b.MaxLatitude-b.MinLatitude != tt.cellDeg || b.MaxLongitude-b.MinLongitude != tt.cellDeg ||
				b.MinLatitude > 28.622788 || b.MaxLatitude <= 28.622788 || b.MinLongitude > 77.213033 || b.MaxLongitude <= 77.213033 {
				t.Errorf("precision %s: bounds %+v, want a %v° cell around the point", tt.precision, *b, tt.cellDeg)
			}
		}
	}
	res := apitest.Do(t, h, http.MethodPost, "/api/v1/digipin/encode", apitest.JSONType, `{"latitude":28.622788,"longitude":77.213033}`)
	if want := `{"digipin":"39J-49L-L8T4","latitude":28.622788,"longitude":77.213033}`; res.Status != 200 || string(res.Data) != want {
		t.Errorf("no precision = %d %s, want data %s", res.Status, res.Data, want)
	}
	for _, req := range [][2]string{
		{apitest.JSONType, `{"latitude":28.6,"longitude":77.2,"precision":0}`},
		{apitest.JSONType, `{"latitude":28.6,"longitude":77.2,"precision":11}`},
		{apitest.JSONType, `{"latitude":28.6,"longitude":77.2,"precision":2.5}`},
		{apitest.JSONType, `{"latitude":28.6,"longitude":77.2,"precision":"5"}`},
		{apitest.FormType, `latitude=28.6&longitude=77.2&precision=-1`},
	} {
		if res := apitest.Do(t, h, http.MethodPost, "/api/v1/digipin/encode", req[0], req[1]); res.Status != 422 || res.Errors["precision"] == nil {
			t.Errorf("%s = %d %v, want 422 on precision", req[1], res.Status, res.Errors)
		}
	}
}

// TestDigipinOffices lists the offices of porttest.PostalDataset in cells
// of several levels, with paging, and answers 422 for malformed codes.
func TestDigipinOffices(t *testing.T) {
	h := apitest.NewHandler(t, apitest.PostalRoutes(memory.NewPostalStore(porttest.PostalDataset())))
	tests := []struct {
		code, query string
		level       int
		wantIDs     []int64
		total       int
	}{
		{"2", "", 1, []int64{8, 9, 3, 1, 2, 15, 4}, 7},
		{"2", "?per_page=3&page=2", 1, []int64{1, 2, 15}, 7},
		{"235", "", 3, []int64{3, 1, 2, 15}, 4},
		{"235-m6", "", 5, []int64{3, 1}, 2}, // either case
		{"235PPFJ9", "", 8, []int64{15}, 1}, // hyphens optional
		{"235-M65-K249", "", 10, []int64{1}, 1},
		{"39J", "", 3, []int64{}, 0}, // a valid cell with no office
		{"2", "?page=9", 1, []int64{}, 7},
	}
	for _, tt := range tests {
		res := apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/"+url.PathEscape(tt.code)+"/offices"+tt.query, "", "")
		var d httpapi.CellOfficesData
		res.Decode(t, &d)
		ids := []int64{}
		for _, o := range d.Results {
			ids = append(ids, o.ID)
		}
		if res.Status != http.StatusOK || d.Cell.Level != tt.level || d.Total != tt.total || d.Meta.Total != tt.total || !slices.Equal(ids, tt.wantIDs) {
			t.Errorf("%s%s = %d level %d, %d offices %v; want level %d, %d offices %v", tt.code, tt.query, res.Status, d.Cell.Level, d.Total, ids, tt.level, tt.total, tt.wantIDs)
		}
	}
	for _, bad := range []string{"39A", "39J-49L-L8T4-F", "%20", "-"} {
		if res := apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/"+bad+"/offices", "", ""); res.Status != 422 || res.Errors["code"] == nil {
			t.Errorf("%q = %d %v, want 422 on code", bad, res.Status, res.Errors)
		}
	}
	for _, q := range []string{"?per_page=101", "?page=0", "?per_page=x"} {
		if res := apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/235/offices"+q, "", ""); res.Status != 422 {
			t.Errorf("%s = %d, want 422", q, res.Status)
		}
	}
}
