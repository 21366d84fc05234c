package porttest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/ports"
)

// BenchCrawlPages is the size of the crawl BenchmarkCrawlList lists.
const BenchCrawlPages = 10_000

// BenchmarkCrawlList measures what GET /crawls/{id}/pages and
// /crawls/{id}/issues with per_page=100 cost a store: listing 100 pages or
// issues of a finished crawl of BenchCrawlPages pages (each with an audit
// and 20 links; one issue per page, a quarter deep pages), first pages and
// a page far down, by each sort and filter. newStores returns empty
// stores of one database.
func BenchmarkCrawlList(b *testing.B, newStores func(testing.TB) CrawlStores) {
	st := newStores(b)
	s, u := st.Crawls, newOwners(b, st.Accounts)
	ctx := context.Background()
	cr := newCrawl(u[1], "https://example.com/", 0)
	cr.Settings.MaxPages = BenchCrawlPages
	c := running(b, s, cr)
	results := sampleResults()
	const batch = 200
	var issues []crawl.Issue
	for from := 0; from < BenchCrawlPages; from += batch {
		pages := make([]ports.FetchedPage, 0, batch)
		for i := from; i < from+batch; i++ {
			links := make([]string, 20)
			for k := range links {
				links[k] = pageURL(c, (i*7+k*131)%BenchCrawlPages)
			}
			status := 200
			if i%50 == 0 {
				status = 404
			}
			pages = append(pages, ports.FetchedPage{
				Page: crawl.Page{URL: pageURL(c, i), FinalURL: pageURL(c, i), Status: status, Depth: i % 6, Title: fmt.Sprintf("Page %d", i),
					Noindex: i%10 == 0, Fingerprint: uint64(i) * 0x9E3779B97F4A7C15, Outlinks: links},
				Score: i % 101, Rating: pagecheck.RatingFor(i % 101), Results: results,
				ResponseTime: time.Duration(i%997) * time.Millisecond, Bytes: int64(1000 + i), FetchedAt: crawlEpoch,
			})
			t := crawl.DuplicateTitle
			if i%4 == 0 {
				t = crawl.DeepPage
			}
			issues = append(issues, crawl.Issue{Type: t, URL: pageURL(c, i), Detail: "found", Related: []string{pageURL(c, (i+1)%BenchCrawlPages)}, RelatedTotal: 1})
		}
		if err := s.RecordPages(ctx, c.ID, nil, pages); err != nil {
			b.Fatal(err)
		}
	}
	if err := s.SaveIssues(ctx, c.ID, issues); err != nil {
		b.Fatal(err)
	}
	finishCrawl(b, s, c.ID, 60)
	first, far := paging.Page{Number: 1, PerPage: 100}, paging.Page{Number: 80, PerPage: 100}
	no := false
	for _, pc := range []struct {
		name string
		q    ports.PageQuery
		want int // matching pages
	}{
		{"pages/url", ports.PageQuery{SortBy: ports.SortPagesByURL, Page: first}, BenchCrawlPages},
		{"pages/url/page80", ports.PageQuery{SortBy: ports.SortPagesByURL, Page: far}, BenchCrawlPages},
		{"pages/inlinks_desc", ports.PageQuery{SortBy: ports.SortPagesByInlinks, Desc: true, Page: first}, BenchCrawlPages},
		{"pages/response_time/page80", ports.PageQuery{SortBy: ports.SortPagesByResponseTime, Page: far}, BenchCrawlPages},
		{"pages/depth", ports.PageQuery{SortBy: ports.SortPagesByDepth, Page: first}, BenchCrawlPages},
		{"pages/score_desc", ports.PageQuery{SortBy: ports.SortPagesByScore, Desc: true, Page: first}, BenchCrawlPages},
		{"pages/status_404", ports.PageQuery{Status: 404, SortBy: ports.SortPagesByURL, Page: first}, BenchCrawlPages / 50},
		{"pages/not_indexable", ports.PageQuery{Indexable: &no, Page: first}, BenchCrawlPages / 10},
		{"pages/issue_type", ports.PageQuery{IssueType: crawl.DeepPage, SortBy: ports.SortPagesByScore, Page: first}, BenchCrawlPages / 4},
		{"pages/check", ports.PageQuery{Check: "headings", SortBy: ports.SortPagesByScore, Page: first}, BenchCrawlPages},
	} {
		b.Run(pc.name, func(b *testing.B) {
			for b.Loop() {
				got, total, err := s.Pages(ctx, u[1], c.ID, pc.q)
				if err != nil || len(got) != min(100, pc.want) || total != pc.want {
					b.Fatalf("Pages = %d items (total %d), %v; want %d", len(got), total, err, pc.want)
				}
			}
		})
	}
	// What the exports and a crawl's finish read: every page, and every
	// failed check (one per page) with its audit decoded.
	b.Run("each/pages", func(b *testing.B) {
		for b.Loop() {
			n := 0
			if err := s.EachPage(ctx, c.ID, func(ports.CrawlPage) error { n++; return nil }); err != nil || n != BenchCrawlPages {
				b.Fatalf("EachPage = %d pages, %v", n, err)
			}
		}
	})
	b.Run("each/failed_checks", func(b *testing.B) {
		for b.Loop() {
			n := 0
			if err := s.EachFailedCheck(ctx, c.ID, func(ports.FailedCheck) error { n++; return nil }); err != nil || n != BenchCrawlPages {
				b.Fatalf("EachFailedCheck = %d checks, %v", n, err)
			}
		}
	})
	for _, ic := range []struct {
		name string
		q    ports.IssueQuery
		want int
	}{
		{"issues", ports.IssueQuery{Page: first}, BenchCrawlPages},
		{"issues/page80", ports.IssueQuery{Page: far}, BenchCrawlPages},
		{"issues/type", ports.IssueQuery{Type: crawl.DeepPage, Page: first}, BenchCrawlPages / 4},
		{"issues/severity", ports.IssueQuery{Severity: pagecheck.Medium, Page: first}, BenchCrawlPages * 3 / 4},
	} {
		b.Run(ic.name, func(b *testing.B) {
			for b.Loop() {
				got, total, err := s.Issues(ctx, u[1], c.ID, ic.q)
				if err != nil || len(got) != 100 || total != ic.want {
					b.Fatalf("Issues = %d items (total %d), %v; want %d", len(got), total, err, ic.want)
				}
			}
		})
	}
}
