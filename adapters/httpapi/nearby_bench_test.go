package httpapi_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/directory"
)

// BenchmarkNearbyHTTP measures GET /api/v1/pincodes/nearby through the
// production handler, cycling every 80th located office's point (as
// tests/load does), without and with review counts attached (the served
// configuration: each answer's offices carry their counts). cpu-ns/op is
// the process's CPU time per request, steadier than ns/op on a shared
// machine.
func BenchmarkNearbyHTTP(b *testing.B) {
	ds, store, plain := loadFull(b)
	mux := http.NewServeMux()
	routes := apitest.PostalRoutes(store)
	routes.Directory = directory.NewWithReviews(store, memory.NewReviewStore())
	if err := httpapi.Register(httpapi.NewAPI(mux), routes); err != nil {
		b.Fatal(err)
	}
	reviewed := middleware.NewHandler(mux, middleware.Options{})
	var reqs []*http.Request
	located := 0
	for _, o := range ds.Offices {
		if o.Location == nil {
			continue
		}
		if located%80 == 0 {
			target := fmt.Sprintf("/api/v1/pincodes/nearby?latitude=%v&longitude=%v", o.Location.Latitude, o.Location.Longitude)
			reqs = append(reqs, httptest.NewRequest(http.MethodGet, target, nil))
		}
		located++
	}
	for _, c := range []struct {
		name string
		h    http.Handler
	}{{"plain", plain}, {"reviews", reviewed}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			reportCPU(b, func() {
				for b.Loop() {
					rec := httptest.NewRecorder()
					c.h.ServeHTTP(rec, reqs[i%len(reqs)])
					if rec.Code != http.StatusOK {
						b.Fatalf("GET %s = %d", reqs[i%len(reqs)].URL, rec.Code)
					}
					i++
				}
			})
		})
	}
}
