package tests

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/ports"
)

// BenchmarkPostalLookup is GET /api/v1/pincodes/110001 through the
// production handler over the full directory, served three ways: from
// memory (sqlite: and memory: storage), from the in-memory replica of the
// directory imported into Postgres (what serve does on Postgres: the
// target is >= 0.9x memory), and from the per-request Postgres store, for
// contrast (several round trips per lookup).
func BenchmarkPostalLookup(b *testing.B) {
	ds := fullDataset(b)
	db, _ := newDatabase(b)
	ctx := context.Background()
	if _, err := postgres.ImportDataset(ctx, db, ds); err != nil {
		b.Fatal(err)
	}
	replica, _, err := postgres.LoadDataset(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range []struct {
		name  string
		store ports.PostalStore
	}{
		{"memory", memory.NewPostalStore(ds)},
		{"postgres_replica", memory.NewPostalStore(replica)},
		{"postgres_per_request", postgres.NewPostalStore(db)},
	} {
		h := twinHandler(s.store, memory.NewAccountStore(), memory.NewReportStore())
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/pincodes/110001", nil))
					if rec.Code != http.StatusOK {
						b.Fatalf("status %d: %s", rec.Code, rec.Body)
					}
				}
			})
		})
	}
}
