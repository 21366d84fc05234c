package httpapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sort"
	"testing"

	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/domain/postal"
)

// benchPins returns every PIN of the full dataset, in order: the lookup
// benchmarks cycle through all of them (about 8.5 offices each).
func benchPins(b *testing.B) []postal.Pincode {
	ds, _, _ := loadFull(b)
	seen := map[postal.Pincode]bool{}
	var pins []postal.Pincode
	for _, o := range ds.Offices {
		if !seen[o.Pincode] {
			seen[o.Pincode] = true
			pins = append(pins, o.Pincode)
		}
	}
	sort.Slice(pins, func(i, j int) bool { return pins[i] < pins[j] })
	return pins
}

// BenchmarkPincodeLookupStore measures the memory store's lookup by PIN.
func BenchmarkPincodeLookupStore(b *testing.B) {
	pins := benchPins(b)
	_, store, _ := loadFull(b)
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if offices, err := store.OfficesByPincode(ctx, pins[i%len(pins)]); err != nil || len(offices) == 0 {
			b.Fatalf("%s: %d offices, %v", pins[i%len(pins)], len(offices), err)
		}
		i++
	}
}

// BenchmarkPincodeLookupApp measures the use case: parsing plus the store.
func BenchmarkPincodeLookupApp(b *testing.B) {
	pins := benchPins(b)
	_, store, _ := loadFull(b)
	p := directory.New(store)
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, _, err := p.Lookup(ctx, string(pins[i%len(pins)])); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkPincodeLookupHTTP measures GET /api/v1/pincodes/{pincode}
// through the production handler (routing, middleware, JSON, DIGIPINs),
// without a network.
func BenchmarkPincodeLookupHTTP(b *testing.B) {
	pins := benchPins(b)
	_, _, h := loadFull(b)
	reqs := make([]*http.Request, len(pins))
	for i, pin := range pins {
		reqs[i] = httptest.NewRequest(http.MethodGet, "/api/v1/pincodes/"+string(pin), nil)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, reqs[i%len(reqs)])
		if rec.Code != http.StatusOK {
			b.Fatalf("GET %s = %d", reqs[i%len(reqs)].URL, rec.Code)
		}
		i++
	}
}

// BenchmarkPincodeLookupHTTPCached measures GET /api/v1/pincodes/{pincode}
// over every 10th PIN (as tests/load does), answered from the body cache
// after the first round: plain, and gzipped for a client that takes it.
func BenchmarkPincodeLookupHTTPCached(b *testing.B) {
	pins := benchPins(b)
	_, _, h := loadFull(b)
	for _, enc := range []string{"identity", "gzip"} {
		b.Run(enc, func(b *testing.B) {
			var reqs []*http.Request
			for i := 0; i < len(pins); i += 10 {
				r := httptest.NewRequest(http.MethodGet, "/api/v1/pincodes/"+string(pins[i]), nil)
				r.Header.Set("Accept-Encoding", enc)
				reqs = append(reqs, r)
			}
			for _, r := range reqs {
				h.ServeHTTP(httptest.NewRecorder(), r)
			}
			b.ReportAllocs()
			i := 0
			reportCPU(b, func() {
				for b.Loop() {
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, reqs[i%len(reqs)])
					if rec.Code != http.StatusOK {
						b.Fatalf("GET %s = %d", reqs[i%len(reqs)].URL, rec.Code)
					}
					i++
				}
			})
		})
	}
}
