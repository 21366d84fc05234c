package sqlite_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webpage"
)

// benchReport is a report as the analyser makes it: every check of the
// catalogue, about 8 KB of results JSON (reported as results_bytes).
func benchReport(b *testing.B) (report.Report, int) {
	b.Helper()
	page := &webpage.Fetched{RequestedURL: "https://www.example.com/", Page: webpage.Response{URL: "https://www.example.com/", Status: 200,
		Header: map[string][]string{"Content-Type": {"text/html"}, "Strict-Transport-Security": {"max-age=63072000"}},
		Body:   []byte("<!doctype html><title>x</title>"), Elapsed: 300 * time.Millisecond}}
	now := time.Now()
	r := report.Report{UserID: 1, Privacy: report.Private, CreatedAt: now, UpdatedAt: now}
	if err := r.Apply(pagecheck.Analyse(page, pagecheck.DefaultWeights), now); err != nil {
		b.Fatal(err)
	}
	raw, _ := json.Marshal(r.Results)
	return r, len(raw)
}

// BenchmarkCreateReport stores reports one after another on a file.
func BenchmarkCreateReport(b *testing.B) {
	db := openDB(b)
	withUsers(b, db, 1)
	store := sqlite.NewReportStore(db)
	r, size := benchReport(b)
	ctx := context.Background()
	for i := 0; b.Loop(); i++ {
		r.URL = fmt.Sprintf("https://www.example.com/%d", i)
		if _, err := store.CreateReport(ctx, r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(size), "results_bytes")
}

// BenchmarkCreateReportParallel stores reports from GOMAXPROCS goroutines
// at once: they queue for the one writer.
func BenchmarkCreateReportParallel(b *testing.B) {
	db := openDB(b)
	withUsers(b, db, 1)
	store := sqlite.NewReportStore(db)
	r, size := benchReport(b)
	ctx := context.Background()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := store.CreateReport(ctx, r); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(size), "results_bytes")
}
