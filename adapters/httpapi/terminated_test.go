package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/domain/postal"
)

// TestTerminatedPincodes: a PIN an earlier release had answers terminated,
// with that release, in a lookup, a batch and a bulk file alike; a PIN no
// release had stays plainly not found.
func TestTerminatedPincodes(t *testing.T) {
	ds, err := loadFixtureDataset()
	if err != nil {
		t.Fatal(err)
	}
	store := memory.NewPostalStore(ds)
	store.SetTerminated(map[postal.Pincode]postal.Release{"999999": {Seq: 1, Version: "v1", Published: "2025-10-03"}})
	h := postalHandler(store)

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/pincodes/999999", nil))
	var body map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if rec.Code != http.StatusNotFound || body["terminated"] != true || body["last_release"] != "2025-10-03" {
		t.Errorf("lookup of a terminated PIN = %d %v; want 404, terminated, last release 2025-10-03", rec.Code, body)
	}

	res := apitest.Do(t, h, http.MethodPost, "/api/v1/pincodes/batch", apitest.JSONType, `{"pincodes":["999999","888888"]}`)
	var b httpapi.PincodeBatchData
	res.Decode(t, &b)
	if b.NotFound != 2 || len(b.Results) != 2 {
		t.Fatalf("batch = %d %+v; want 2 not found", res.Status, b)
	}
	if r := b.Results[0]; r.Status != "not_found" || !r.Terminated || r.LastRelease != "2025-10-03" {
		t.Errorf("terminated item = %+v; want not_found, terminated, last release 2025-10-03", r)
	}
	if r := b.Results[1]; r.Terminated || r.LastRelease != "" {
		t.Errorf("never seen item = %+v; want no terminated", r)
	}

	req := httptest.NewRequest(http.MethodPost, "/api/v1/pincodes/bulk", strings.NewReader("pincode\n999999\n888888\n"))
	req.Header.Set("Content-Type", "text/csv")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	out, _ := io.ReadAll(rec.Body)
	want := "line,pincode,status,offices,head_office,district,state,latitude,longitude,error\r\n" +
		"2,999999,not_found,0,,,,,,no post office has this pincode (terminated: the last release that had it is 2025-10-03)\r\n" +
		"3,888888,not_found,0,,,,,,no post office has this pincode\r\n"
	if rec.Code != http.StatusOK || string(out) != want {
		t.Errorf("bulk = %d\n%s\nwant\n%s", rec.Code, out, want)
	}
}
