package main

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/report"
)

// BenchmarkJobThroughput queues 100 analyses of a local fixture page
// (wait=0) on the real server graph (SQLite, River, one worker) and
// reports analyses per minute per worker and the latency from the enqueue
// to the finished report (p50, p99) through that backlog, then of 20 lone
// jobs on the idle queue (River polls SQLite each second):
//
//	go test ./cmd/pinsight -run '^$' -bench JobThroughput -benchtime 1x
func BenchmarkJobThroughput(b *testing.B) {
	const n = 100
	fixture := newFixtureSite(b, 0)
	for range b.N {
		cfg := jobsServeConfig("sqlite:"+filepath.Join(b.TempDir(), "p.db"), 5*time.Second)
		cfg.Site.JobWorkers = 1
		cfg.Site.UserConcurrent = 0
		var rs *reports.Reports
		var acc *accounts.Accounts
		a := fxtest.New(b, mustOptions(b, cfg), fx.Populate(&rs, &acc))
		a.RequireStart()
		ctx := context.Background()
		u, err := acc.Register(ctx, "bench@example.com", "correct horse battery staple")
		if err != nil {
			b.Fatal(err)
		}
		zero := time.Duration(0)
		queued := map[int64]time.Time{}
		start := time.Now()
		for range n {
			c, err := rs.Create(ctx, u.ID, reports.NewReport{URL: fixture.URL + "/fast", Wait: &zero})
			if err != nil {
				b.Fatal(err)
			}
			queued[c.ID] = time.Now()
		}
		var latencies []time.Duration
		done := map[int64]bool{}
		for len(done) < n {
			for page := 1; ; page++ {
				list, err := rs.List(ctx, u.ID, report.ReportParams{Status: "generated", PerPage: 100, Page: page})
				if err != nil {
					b.Fatal(err)
				}
				now := time.Now()
				for _, r := range list.Items {
					if !done[r.ID] {
						done[r.ID] = true
						latencies = append(latencies, now.Sub(queued[r.ID]))
					}
				}
				if len(list.Items) < 100 {
					break
				}
			}
			if time.Since(start) > 10*time.Minute {
				b.Fatalf("only %d of %d analyses done in 10 minutes", len(done), n)
			}
			time.Sleep(10 * time.Millisecond)
		}
		elapsed := time.Since(start)
		// Then one at a time on the idle queue: the latency a lone job sees.
		var idle []time.Duration
		for range 20 {
			c, err := rs.Create(ctx, u.ID, reports.NewReport{URL: fixture.URL + "/fast", Wait: &zero})
			if err != nil {
				b.Fatal(err)
			}
			t0 := time.Now()
			for {
				r, err := rs.Get(ctx, u.ID, c.ID)
				if err != nil {
					b.Fatal(err)
				}
				if r.Status.Finished() {
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
			idle = append(idle, time.Since(t0))
		}
		a.RequireStop()
		slices.Sort(latencies)
		slices.Sort(idle)
		b.ReportMetric(float64(n)/elapsed.Minutes(), "analyses/min/worker")
		b.ReportMetric(float64(latencies[n/2].Milliseconds()), "backlog-p50-ms")
		b.ReportMetric(float64(latencies[n*99/100].Milliseconds()), "backlog-p99-ms")
		b.ReportMetric(float64(idle[len(idle)/2].Milliseconds()), "idle-p50-ms")
		b.ReportMetric(float64(idle[len(idle)*99/100].Milliseconds()), "idle-p99-ms")
	}
}
