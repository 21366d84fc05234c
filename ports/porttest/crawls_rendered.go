package porttest

import (
	"context"
	"reflect"
	"testing"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/ports"
)

// testCrawlRendered: a rendered crawl's pages keep their render (rendered
// or not, why, their rendered issues) in lists and in EachPage, their
// rendering only in their own read, and a URL found by a link only a
// rendered DOM has stays marked, found again or not; a page recorded
// again without a render loses both.
func testCrawlRendered(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	c := running(t, s, newCrawl(u[1], "https://example.com/", 0))
	found := []ports.FrontierURL{{URL: pageURL(c, 0), Depth: 0, Source: "start"},
		{URL: pageURL(c, 1), Depth: 1, Source: pageURL(c, 0), FoundByJS: true}}
	if _, err := s.AddURLs(ctx, c.ID, found); err != nil {
		t.Fatal(err)
	}
	// Found again through a link the HTML has: still first found by JS.
	if _, err := s.AddURLs(ctx, c.ID, []ports.FrontierURL{{URL: pageURL(c, 1), Depth: 1, Source: pageURL(c, 0)}}); err != nil {
		t.Fatal(err)
	}
	pages := pagesOf(c, 2)
	render := crawl.PageRender{Rendered: true, Reason: "app_shell", Issues: []crawl.PageIssue{
		{Type: crawl.JSErrors, Detail: "1 console error and 0 uncaught exceptions."}, {Type: crawl.SlowLCP, Detail: "Largest Contentful Paint took 4200 ms (poor)."}}}
	rendering := &pagecheck.Rendering{Rendered: true, Reason: "app_shell", Settled: true, URL: pageURL(c, 0), ElapsedMs: 812,
		Compare:          []pagecheck.FieldChange{{Field: "words", Raw: "0", Rendered: "420", Changed: true}},
		ContentAddedByJS: true, Loaded: pagecheck.Loaded{Requests: 3, Bytes: 12_000, Errors: 1,
			Console: []pagecheck.ConsoleMessage{{Kind: "error", Text: "boom"}}},
		Lab: pagecheck.Lab{LCP: pagecheck.Metric{Value: 4200, Grade: pagecheck.GradePoor}}}
	pages[0].Page.Render, pages[0].Rendering = render, rendering
	pages[1].Page.Render = crawl.PageRender{Reason: "server_rendered"}
	if err := s.RecordPages(ctx, c.ID, nil, pages); err != nil {
		t.Fatal(err)
	}
	listed, _, err := s.Pages(ctx, u[1], c.ID, ports.PageQuery{})
	if err != nil || len(listed) != 2 {
		t.Fatalf("Pages = %d, %v", len(listed), err)
	}
	if p := listed[0]; !reflect.DeepEqual(p.Page.Render, render) || p.Page.FoundByJS || p.Rendering != nil {
		t.Errorf("listed p0: render %+v, found by JS %v, rendering %v; want its render, not found by JS, no rendering",
			p.Page.Render, p.Page.FoundByJS, p.Rendering)
	}
	if p := listed[1]; p.Page.Render.Reason != "server_rendered" || p.Page.Render.Rendered || !p.Page.FoundByJS {
		t.Errorf("listed p1: render %+v, found by JS %v; want not rendered (server_rendered), found by JS", p.Page.Render, p.Page.FoundByJS)
	}
	one, err := s.Page(ctx, u[1], c.ID, listed[0].ID)
	if err != nil || !reflect.DeepEqual(one.Rendering, rendering) || !reflect.DeepEqual(one.Page.Render, render) {
		t.Errorf("Page(p0): rendering %+v, render %+v, %v; want both as recorded", one.Rendering, one.Page.Render, err)
	}
	var each []crawl.PageRender
	if err := s.EachPage(ctx, c.ID, func(p ports.CrawlPage) error { each = append(each, p.Page.Render); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(each) != 2 || !reflect.DeepEqual(each[0], render) {
		t.Errorf("EachPage renders = %+v; want p0's as recorded", each)
	}
	// Recorded again (a retried fetch) without a render.
	again := pagesOf(c, 1)
	if err := s.RecordPages(ctx, c.ID, nil, again); err != nil {
		t.Fatal(err)
	}
	if p, err := s.Page(ctx, u[1], c.ID, listed[0].ID); err != nil || p.Rendering != nil || p.Page.Render.Rendered || len(p.Page.Render.Issues) != 0 {
		t.Errorf("Page(p0) recorded again: rendering %v, render %+v, %v; want neither", p.Rendering, p.Page.Render, err)
	}
}
