package httpapi_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkDigipinEncodeHTTP measures POST /api/v1/digipin/encode with a
// JSON body through the production handler (as tests/load does), cycling
// every 80th located office's point.
func BenchmarkDigipinEncodeHTTP(b *testing.B) {
	ds, _, h := loadFull(b)
	var bodies []string
	located := 0
	for _, o := range ds.Offices {
		if o.Location == nil {
			continue
		}
		if located%80 == 0 {
			bodies = append(bodies, fmt.Sprintf(`{"latitude":%v,"longitude":%v}`, o.Location.Latitude, o.Location.Longitude))
		}
		located++
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		r := httptest.NewRequest(http.MethodPost, "/api/v1/digipin/encode", strings.NewReader(bodies[i%len(bodies)]))
		r.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code != http.StatusOK {
			b.Fatalf("POST %s = %d %s", bodies[i%len(bodies)], rec.Code, rec.Body)
		}
		i++
	}
}
