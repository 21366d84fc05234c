package crawls_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/tests/crawlsite"
	"github.com/pinsight/pinsight/tests/fixturecrawl"
)

// replay answers the URLs it recorded, parsing an HTML body again on each
// Get as the fetcher does: the network is left out.
type replay struct {
	answers map[string]*webpage.Linked
}

func (s *replay) Get(_ context.Context, u string, _ []crawl.Header, _ int64) (*webpage.Linked, error) {
	a, ok := s.answers[u]
	if !ok {
		return nil, &webpage.FetchError{Reason: "not recorded: " + u}
	}
	resp := *a.Response
	l := &webpage.Linked{URL: a.URL, Response: &resp}
	if a.Document != nil {
		l.Document = fetch.ParseHTML(resp.Body)
	}
	return l, nil
}

func (s *replay) Close() {}

// recorder is a session that keeps every answer it got.
type recorder struct {
	ports.SiteSession
	answers map[string]*webpage.Linked
}

func (s *recorder) Get(ctx context.Context, u string, h []crawl.Header, maxBytes int64) (*webpage.Linked, error) {
	l, err := s.SiteSession.Get(ctx, u, h, maxBytes)
	if err == nil {
		s.answers[u] = l
	}
	return l, err
}

// recording is the first pages of the fixture site, breadth first from
// its start page, and every answer their fetches and audits got.
type recording struct {
	urls          []ports.FrontierURL
	answers       map[string]*webpage.Linked
	robots, probe *webpage.Response
	// page fetches and audits a URL of urls, replaying the answers.
	page func(context.Context, ports.FrontierURL) ([]ports.FetchedPage, []ports.FrontierURL)
}

// recordSite records the first n pages of the fixture site.
func recordSite(tb testing.TB, n int) *recording {
	tb.Helper()
	srv := fixturecrawl.Serve(tb, crawlsite.New(crawlsite.Options{Pages: fixturecrawl.Pages}))
	f, err := fetch.New(fetch.Config{AllowTargets: []string{strings.TrimPrefix(srv.URL, "http://")}, Timeout: 10 * time.Second})
	if err != nil {
		tb.Fatal(err)
	}
	maxPages, depth, concurrency := crawl.MaxMaxPages, 100, 1
	s, err := crawl.NewSettings(crawl.Params{URL: srv.URL + crawlsite.StartPath, MaxPages: &maxPages, MaxDepth: &depth, Concurrency: &concurrency})
	if err != nil {
		tb.Fatal(err)
	}
	c := crawl.Crawl{ID: 1, Site: "127.0.0.1", Settings: s}
	env := memoryEnv(tb)
	cs := crawls.New(env.Store, env.Queue, f, nil, crawls.Config{})
	ctx := context.Background()
	sess := &recorder{SiteSession: f.Session(), answers: map[string]*webpage.Linked{}}
	defer sess.Close()
	rec := &recording{answers: sess.answers}
	if l, err := sess.Get(ctx, srv.URL+"/robots.txt", nil, 0); err == nil {
		rec.robots = l.Response
	}
	if l, err := sess.Get(ctx, srv.URL+"/pinsight-404-probe-bench", nil, 0); err == nil {
		rec.probe = l.Response
	}
	page := crawls.PageFetcher(cs, c, sess, rec.robots, rec.probe)
	queue := []ports.FrontierURL{{URL: s.URL, Depth: 0, Source: "start"}}
	seen := map[string]bool{s.URL: true}
	for i := 0; i < len(queue) && i < n; i++ {
		_, found := page(ctx, queue[i])
		for _, fu := range found {
			if !seen[fu.URL] {
				seen[fu.URL] = true
				queue = append(queue, fu)
			}
		}
	}
	rec.urls = queue[:min(n, len(queue))]
	rec.page = crawls.PageFetcher(cs, c, &replay{answers: sess.answers}, rec.robots, rec.probe)
	return rec
}

// BenchmarkFetchPage is one page of the fixture site fetched (from a
// recording: no network), parsed, indexed, audited and its links found,
// as the crawl does it (the store left out): one op is one page, cycling
// through the site's first 200 pages. cpu-us/page is the process's CPU
// time per page (the collector's included): on a shared machine it varies
// less than ns/op.
//
//	go test ./app/crawls -run '^$' -bench FetchPage -benchmem
func BenchmarkFetchPage(b *testing.B) {
	rec := recordSite(b, 200)
	ctx := context.Background()
	i := 0
	cpu0 := cpuNanos()
	for b.Loop() {
		if pages, _ := rec.page(ctx, rec.urls[i%len(rec.urls)]); len(pages) == 0 {
			b.Fatal("no record")
		}
		i++
	}
	b.ReportMetric(float64(cpuNanos()-cpu0)/1e3/float64(b.N), "cpu-us/page")
}
