package crawls_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/tests/fixturecrawl"
)

// BenchmarkCrawlLinkBomb crawls the link bomb (one page with 190,000
// same-site links, the 5 MiB a fetch reads) with max_pages 300 and
// concurrency 4 into a SQLite file, as a job's runs would, and reports
// the URLs the crawl stored, the bytes allocated meanwhile, and the peak
// of the Go heap in use and of the resident set (Linux) above what they
// were before it started, sampled every 20 ms, and how many of the job's
// attempts failed (it gives up after 3).
//
//	go test ./app/crawls -run '^$' -bench CrawlLinkBomb -benchtime 1x
func BenchmarkCrawlLinkBomb(b *testing.B) {
	bomb := linkBomb(190_000)
	srv := fixturecrawl.Serve(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { bomb(nil, w, r) }))
	var heapMB, rssMB, allocMB float64
	var stored, retries int
	for b.Loop() {
		b.StopTimer()
		e := sqliteEnv(b)
		s, err := crawl.NewSettings(crawl.Params{URL: srv.URL + "/", MaxPages: ptr(300), Concurrency: ptr(4)})
		if err != nil {
			b.Fatal(err)
		}
		c, jobID, err := e.Queue.CreateCrawlWithJob(context.Background(), crawl.Crawl{UserID: e.UserID, Site: "127.0.0.1", Settings: s, CreatedAt: time.Now()}, 0, nil)
		if err != nil {
			b.Fatal(err)
		}
		cs := fixturecrawl.New(b, e, srv, crawls.Config{})
		var failed int
		b.StartTimer()
		peak := measureMemory(func() {
			failed = runRetrying(b, cs, ports.CrawlJob{ID: jobID, CrawlID: c.ID, UserID: e.UserID, Attempt: 1})
		})
		b.StopTimer()
		done, err := e.Store.CrawlByID(b.Context(), c.ID)
		if err != nil || done.Status != crawl.StatusFinished || done.Progress.Crawled != 300 {
			b.Errorf("crawl ended %s with %+v, %v after %d failed attempts; want finished with 300 pages", done.Status, done.Progress, err, failed)
		}
		retries = max(retries, failed)
		stored = max(stored, done.Progress.Discovered)
		allocMB, heapMB, rssMB = max(allocMB, peak.allocMB), max(heapMB, peak.heapMB), max(rssMB, peak.rssMB)
		b.StartTimer()
	}
	b.ReportMetric(float64(stored), "stored-urls")
	b.ReportMetric(float64(retries), "failed-attempts")
	b.ReportMetric(allocMB, "alloc-MB")
	b.ReportMetric(heapMB, "heap-MB")
	b.ReportMetric(rssMB, "rss-MB")
}

// runRetrying runs job as the queue would, slice after slice, also after
// a failed attempt (at most 3, each run again at once), until it ends; it
// returns how many attempts failed.
func runRetrying(tb testing.TB, cs *crawls.Crawls, job ports.CrawlJob) (failed int) {
	tb.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for time.Now().Before(deadline) {
		err := cs.Run(context.Background(), job)
		var snooze *ports.SnoozeError
		var retry *ports.RetryError
		switch {
		case err == nil:
			return failed
		case errors.As(err, &retry):
			tb.Logf("attempt %d: %v", job.Attempt, err)
			failed++
			job.Attempt++
			if failed == 3 {
				return failed
			}
		case !errors.As(err, &snooze):
			tb.Fatalf("run = %v", err)
		}
	}
	tb.Fatal("the crawl did not end within 5 minutes")
	return failed
}
