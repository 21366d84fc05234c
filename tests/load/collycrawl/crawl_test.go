package main

import (
	"net/http/httptest"
	"testing"

	"github.com/pinsight/pinsight/tests/crawlsite"
)

// fixturePages is the size of the fixture site the yardstick crawls.
const fixturePages = 2000

// TestCrawl: the yardstick reaches the fixture's linked pages, and no
// more than the site holds.
func TestCrawl(t *testing.T) {
	site := crawlsite.New(crawlsite.Options{Pages: fixturePages})
	srv := httptest.NewServer(site)
	defer srv.Close()
	res, err := Crawl(srv.URL+crawlsite.StartPath, 8, 8)
	if err != nil {
		t.Fatal(err)
	}
	// colly reads no sitemap and ignores robots.txt: it fetches every
	// linked URL (the blocked ones too), not the sitemap-only ones.
	t.Logf("colly: %+v", res)
	st := site.Stats()
	if res.Pages < int64(st.Landed)*9/10 || res.Pages > int64(st.Records) {
		t.Errorf("colly fetched %d pages (%d errors); the site has %d records, %d pages", res.Pages, res.Errors, st.Records, st.Landed)
	}
}

// BenchmarkColly crawls the 2,000-page fixture served on loopback with 8
// requests in flight and reports pages/s: the yardstick of Pinsight's
// crawl rate. The server runs in the same process, as it would beside
// Pinsight's crawler.
//
//	cd tests/load/collycrawl && go test -run x -bench . -count 3
func BenchmarkColly(b *testing.B) {
	for _, idle := range []struct {
		name string
		n    int
	}{{"keepalive8", 8}, {"default", 0}} {
		b.Run(idle.name, func(b *testing.B) {
			srv := httptest.NewServer(crawlsite.New(crawlsite.Options{Pages: fixturePages}))
			defer srv.Close()
			var pages int64
			var secs float64
			var cpu int64
			for b.Loop() {
				cpu0 := cpuNanos()
				res, err := Crawl(srv.URL+crawlsite.StartPath, 8, idle.n)
				cpu += cpuNanos() - cpu0
				if err != nil {
					b.Fatal(err)
				}
				pages += res.Pages
				secs += res.Elapsed.Seconds()
			}
			b.ReportMetric(float64(pages)/secs, "pages/s")
			b.ReportMetric(float64(pages)/float64(b.N), "pages/crawl")
			b.ReportMetric(float64(cpu)/1e6/float64(b.N), "cpu-ms/crawl")
		})
	}
}
