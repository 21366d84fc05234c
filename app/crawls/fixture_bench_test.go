package crawls_test

import (
	"testing"
	"time"

	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/tests/crawlsite"
	"github.com/pinsight/pinsight/tests/fixturecrawl"
)

// BenchmarkCrawl crawls the 2,000-page fixture site with concurrency 8
// into a SQLite file (a new one each time), as a job's runs would, and
// reports pages/s: the figure compared with the colly yardstick
// (tests/load/collycrawl) in tests/load/README.md.
//
//	go test ./app/crawls -run '^$' -bench 'Crawl$' -benchtime 5x
func BenchmarkCrawl(b *testing.B) {
	site := crawlsite.New(crawlsite.Options{Pages: fixturecrawl.Pages})
	srv := fixturecrawl.Serve(b, site)
	var pages int
	var took time.Duration
	for b.Loop() {
		b.StopTimer()
		e := sqliteEnv(b)
		c, job := fixturecrawl.Create(b, e, srv.URL, 8)
		cs := fixturecrawl.New(b, e, srv, crawls.Config{})
		b.StartTimer()
		began := time.Now()
		fixturecrawl.RunToEnd(b, cs, job)
		took += time.Since(began)
		b.StopTimer()
		done, err := e.Store.CrawlByID(b.Context(), c.ID)
		if err != nil || done.Progress.Crawled+done.Progress.Blocked != site.Pages() {
			b.Fatalf("crawl ended with %+v, %v; want %d records", done.Progress, err, site.Pages())
		}
		pages += done.Progress.Crawled
		b.StartTimer()
	}
	b.ReportMetric(float64(pages)/took.Seconds(), "pages/s")
}
