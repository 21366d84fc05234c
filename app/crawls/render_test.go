package crawls_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// shellHTML is an application shell: no text, a root element, a script,
// and one link the server wrote.
const shellHTML = `<!doctype html><html lang="en"><head><title>App</title></head><body><div id="root"></div>` +
	`<a href="/static">Static</a><script src="/app.js"></script></body></html>`

// appRenderer renders each path as its rendered DOM says (dom), with a
// console error on every render, counting renders by path and keeping
// the parties they were for.
type appRenderer struct {
	dom         map[string]string
	unavailable error
	mu          sync.Mutex
	renders     map[string]int
	parties     []string
	shots       int // renders that asked for a screenshot
}

func (r *appRenderer) Available() error { return r.unavailable }

func (r *appRenderer) Render(_ context.Context, rawURL string, opts ports.RenderOptions, _ ports.Admit) (*webpage.Rendered, error) {
	path := rawURL[strings.Index(rawURL[len("http://"):], "/")+len("http://"):]
	r.mu.Lock()
	r.renders[path]++
	r.parties = append(r.parties, opts.Party)
	if !opts.NoScreenshot {
		r.shots++
	}
	r.mu.Unlock()
	html, ok := r.dom[path]
	if !ok {
		return nil, &webpage.FetchError{Reason: "no answer"}
	}
	return &webpage.Rendered{URL: rawURL, Status: 200, HTML: []byte(html), Document: fetch.ParseHTML([]byte(html)), Settled: true,
		Console: []webpage.ConsoleEntry{{Kind: "error", Text: "TypeError: x is undefined"}},
		Timing:  webpage.Timing{TTFB: 50 * time.Millisecond, FCP: 300 * time.Millisecond, LCP: 600 * time.Millisecond, DOMNodes: 40}}, nil
}

func (r *appRenderer) count(path string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.renders[path]
}

// renderedDOM is a rendered page titled title with many words and links.
func renderedDOM(title string, links ...string) string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><head><title>` + title + `</title><meta name="description" content="About ` + title +
		`"></head><body><div id="root"><h1>` + title + `</h1><p>` + strings.Repeat("Words the script wrote into the page. ", 40) + `</p>`)
	for _, l := range links {
		b.WriteString(`<a href="` + l + `">` + l + `</a> `)
	}
	b.WriteString(`</div></body></html>`)
	return b.String()
}

// TestRenderedCrawl: a crawl with render auto renders the application
// shells (and not the server-rendered page), audits and reads them as
// rendered, follows a link only the rendered DOM has (marked FoundByJS),
// finds the rendered issue types, counts its pages rendered and why, and
// keeps each rendered page's rendering; its max_pages is charged to the
// daily quota of renders when accepted and what it did not crawl comes
// back when it ends.
func TestRenderedCrawl(t *testing.T) {
	s := newSite(t, func(_ *site, w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/", "/js-only":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(shellHTML))
		case "/static":
			page(w, "Static", "/")
		default:
			http.NotFound(w, r)
		}
	})
	rd := &appRenderer{renders: map[string]int{}, dom: map[string]string{
		"/":        renderedDOM("Home", "/static", "/js-only"),
		"/js-only": renderedDOM("Only in JS", "/"),
	}}
	limiter := memory.NewRateLimiter()
	analyser := reports.NewAnalyser(nil, reports.AnalyserConfig{Limiter: limiter, Renderer: rd,
		UserRenderDaily: ratelimit.Limit{Requests: 20, Window: 24 * time.Hour}})
	e := newEnv(t, crawls.Config{Renderer: rd, Renders: analyser}, s.Server)
	e.start(t)
	ctx := context.Background()
	c, err := e.crawls.Create(ctx, 1, crawl.Params{URL: s.URL + "/", MaxPages: ptr(10), Render: ptr("auto")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.RenderQuotaUntil.IsZero() {
		t.Error("the crawl's renders were not charged")
	}
	c = e.waitFinal(t, c.ID, 2*time.Minute)
	if c.Status != crawl.StatusFinished || c.Progress.Crawled != 3 {
		t.Fatalf("status %s (%s), progress %+v; want finished with 3 pages", c.Status, c.Failure, c.Progress)
	}
	if rd.count("/") != 1 || rd.count("/js-only") != 1 || rd.count("/static") != 0 {
		t.Errorf("renders = %v, want / and /js-only once each, /static never", rd.renders)
	}
	for _, p := range rd.parties {
		if p != "1" {
			t.Errorf("a render for party %q, want the crawl's user (\"1\"), so the renderer serves users in turns", p)
		}
	}
	if rd.shots != 0 {
		t.Errorf("%d renders asked for a screenshot; a crawl keeps none, so it asks for none", rd.shots)
	}
	pages, _, err := e.crawls.Pages(ctx, 1, c.ID, ports.PageQuery{Page: paging.Page{Number: 1, PerPage: 10}})
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]ports.CrawlPage{}
	for _, p := range pages {
		byPath[strings.TrimPrefix(p.Page.URL, s.URL)] = p
	}
	home, js, static := byPath["/"], byPath["/js-only"], byPath["/static"]
	if !home.Page.Render.Rendered || home.Page.Render.Reason != "app_shell" || home.Page.Title != "Home" || home.Page.FoundByJS {
		t.Errorf("/ = %+v; want rendered for app_shell, titled as rendered, not found by JS", home.Page)
	}
	if !js.Page.FoundByJS || js.Page.Title != "Only in JS" {
		t.Errorf("/js-only = %+v; want found by JS, rendered", js.Page)
	}
	if static.Page.Render.Rendered || static.Page.Render.Reason == "" || static.Page.FoundByJS {
		t.Errorf("/static = %+v; want not rendered, with the rule's reason, linked in the HTML", static.Page.Render)
	}
	if home.Rendering != nil {
		t.Error("the page list carries the rendering; only a page's own read should")
	}
	one, err := e.crawls.Page(ctx, 1, c.ID, home.ID)
	if err != nil || one.Rendering == nil || !one.Rendering.Rendered || one.Rendering.Loaded.Errors != 1 {
		t.Errorf("page / read: rendering %+v, %v; want it rendered with its console error", one.Rendering, err)
	}
	counts := map[crawl.IssueType]int{}
	for _, tc := range c.Summary.Issues {
		counts[tc.Type] = tc.Count
	}
	if counts[crawl.JSErrors] != 2 || counts[crawl.ContentNeedsJS] != 2 {
		t.Errorf("issues = %+v; want js_errors and content_needs_js on both rendered pages", c.Summary.Issues)
	}
	var rendered, not int
	for _, rc := range c.Summary.Rendering {
		if rc.Rendered {
			rendered += rc.Pages
		} else {
			not += rc.Pages
		}
	}
	if rendered != 2 || not != 1 {
		t.Errorf("summary rendering = %+v; want 2 rendered, 1 not", c.Summary.Rendering)
	}
	// 10 charged, 3 crawled: 7 came back, so 20-3 fit now and no more.
	if _, err := analyser.ChargeRenders(ctx, 1, 17); err != nil {
		t.Errorf("after the crawl, 17 renders do not fit: %v", err)
	}
	if _, err := analyser.ChargeRenders(ctx, 1, 1); err == nil {
		t.Error("the quota of renders has room after it should be used up")
	}
}

// TestRenderedCrawlRefused: render on needs a browser that can run (422
// on render); a rendered crawl asks for at most the daily quota of
// renders (422 on max_pages); auto without a browser crawls the HTML,
// each page saying why it was not rendered.
func TestRenderedCrawlRefused(t *testing.T) {
	s := newSite(t, func(_ *site, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(shellHTML))
	})
	ctx := context.Background()
	field := func(err error) string {
		var ve *report.ValidationError
		if !errors.As(err, &ve) {
			return ""
		}
		for f := range ve.Fields {
			return f
		}
		return ""
	}
	none := newEnv(t, crawls.Config{}, s.Server)
	if _, err := none.crawls.Create(ctx, 1, crawl.Params{URL: s.URL + "/", Render: ptr("on")}, nil); field(err) != "render" {
		t.Errorf("render on without a renderer: %v; want a 422 on render", err)
	}
	broken := &appRenderer{renders: map[string]int{}, unavailable: errors.New("no chromium")}
	if _, err := newEnv(t, crawls.Config{Renderer: broken}, s.Server).crawls.Create(ctx, 1, crawl.Params{URL: s.URL + "/", Render: ptr("on")}, nil); field(err) != "render" {
		t.Errorf("render on with an unavailable renderer: %v; want a 422 on render", err)
	}
	analyser := reports.NewAnalyser(nil, reports.AnalyserConfig{Limiter: memory.NewRateLimiter(), Renderer: broken,
		UserRenderDaily: ratelimit.Limit{Requests: 5, Window: 24 * time.Hour}})
	e := newEnv(t, crawls.Config{Renderer: broken, Renders: analyser}, s.Server)
	if _, err := e.crawls.Create(ctx, 1, crawl.Params{URL: s.URL + "/", MaxPages: ptr(6), Render: ptr("auto")}, nil); field(err) != "max_pages" {
		t.Errorf("a rendered crawl of more pages than the quota of renders: %v; want a 422 on max_pages", err)
	}
	e.start(t)
	c, err := e.crawls.Create(ctx, 1, crawl.Params{URL: s.URL + "/", MaxPages: ptr(5), Render: ptr("auto")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c = e.waitFinal(t, c.ID, 2*time.Minute)
	pages, _, err := e.crawls.Pages(ctx, 1, c.ID, ports.PageQuery{Page: paging.Page{Number: 1, PerPage: 10}})
	if err != nil || len(pages) == 0 {
		t.Fatalf("pages %v, %v", pages, err)
	}
	if p := pages[0].Page; p.Render.Rendered || p.Render.Reason != "renderer_unavailable" {
		t.Errorf("page render = %+v; want not rendered, renderer_unavailable", p.Render)
	}
	if broken.count("/") != 0 {
		t.Error("an unavailable renderer was asked to render")
	}
}
