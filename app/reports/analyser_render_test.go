package reports_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// shellHTML is an application shell: its content comes from a script.
const shellHTML = `<!doctype html><html><head><title>Loading</title><script src="/app.js"></script></head><body><div id="root"></div></body></html>`

// appHTML is the shell as a browser rendered it.
const appHTML = `<!doctype html><html lang="en"><head><title>Acme shoes</title><link rel="canonical" href="https://shop.example/"></head>` +
	`<body><div id="root"><h1>Acme shoes</h1><p>` + "Running shoes for every road and trail, sized for every foot. " +
	"Free returns within thirty days, and a repair service for every pair we sell. " + `</p><a href="/men">Men</a><a href="/women">Women</a></div></body></html>`

// articleHTML is a page the server renders itself.
var articleHTML = `<!doctype html><html lang="en"><head><title>An article</title></head><body><h1>An article</h1><p>` +
	strings.Repeat("Words the server wrote into the page itself. ", 30) + `</p></body></html>`

func htmlPage(rawURL, body string) *webpage.Fetched {
	return &webpage.Fetched{RequestedURL: rawURL, Page: webpage.Response{URL: rawURL, Status: 200,
		Header: map[string][]string{"Content-Type": {"text/html; charset=utf-8"}}, Body: []byte(body)},
		Document: fetch.ParseHTML([]byte(body))}
}

// fakeRenderer renders every URL as appHTML, counting its renders, with
// shot as the first screen's screenshot and full as the whole page's when
// asked (fullAsked counts those renders); with gate, each render of the
// shop waits for it.
type fakeRenderer struct {
	unavailable error
	fail        error
	gate        chan struct{}
	mu          sync.Mutex
	renders     int
	shot, full  []byte
	fullAsked   int
	party       string // the last render's
}

func (r *fakeRenderer) Available() error { return r.unavailable }

func (r *fakeRenderer) Render(ctx context.Context, rawURL string, opts ports.RenderOptions, _ ports.Admit) (*webpage.Rendered, error) {
	r.mu.Lock()
	r.renders++
	r.party = opts.Party
	shot, full := r.shot, []byte(nil)
	if opts.FullPage {
		r.fullAsked++
		full = r.full
	}
	r.mu.Unlock()
	if r.gate != nil && strings.Contains(rawURL, "shop") {
		select {
		case <-r.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if r.fail != nil {
		return nil, r.fail
	}
	return &webpage.Rendered{URL: rawURL, Status: 200, HTML: []byte(appHTML), Document: fetch.ParseHTML([]byte(appHTML)), Settled: true,
		Screenshot: shot, FullPage: full,
		Requests: []webpage.Request{{URL: rawURL, Type: "document", Status: 200, Bytes: 900}},
		Timing:   webpage.Timing{TTFB: 80 * time.Millisecond, FCP: 400 * time.Millisecond, LCP: 900 * time.Millisecond, DOMNodes: 12}}, nil
}

func (r *fakeRenderer) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.renders
}

// routeFetcher serves one page per URL.
type routeFetcher map[string]string

func (f routeFetcher) Fetch(_ context.Context, rawURL string, _ ports.Admit) (*webpage.Fetched, error) {
	body, ok := f[rawURL]
	if !ok {
		return nil, &webpage.FetchError{Reason: "no such page"}
	}
	return htmlPage(rawURL, body), nil
}

var renderPages = routeFetcher{"https://shop.example/": shellHTML, "https://blog.example/": articleHTML}

// TestRenderModes: off audits the HTML the server sent; on audits the
// rendered DOM (the title a script set) and says so; auto renders the
// shell and not the article, saying why for each; the mode is kept on the
// report, and a re-analysis may change it.
func TestRenderModes(t *testing.T) {
	r := &fakeRenderer{}
	an := reports.NewAnalyser(renderPages, reports.AnalyserConfig{Renderer: r})
	rs := reports.New(memory.NewReportStore(), an, cheapPasswords)
	ctx := context.Background()
	mode := func(s string) *string { return &s }
	title := func(rep report.Report) any {
		for _, c := range rep.Results[pagecheck.SEO] {
			if c.ID == "title" {
				return c.Value
			}
		}
		return nil
	}

	off, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://shop.example/"})
	if err != nil {
		t.Fatal(err)
	}
	if off.Rendering != nil || off.Render != pagecheck.RenderOff || title(off.Report) != "Loading" || r.count() != 0 {
		t.Errorf("off: rendering %+v, render %q, title %v, renders %d; want none, off, the served title", off.Rendering, off.Render, title(off.Report), r.count())
	}
	on, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://shop.example/", Render: mode("on")})
	if err != nil {
		t.Fatal(err)
	}
	if on.Rendering == nil || !on.Rendering.Rendered || on.Rendering.Reason != pagecheck.RenderAsked || title(on.Report) != "Acme shoes" || on.Render != pagecheck.RenderOn {
		t.Errorf("on: rendering %+v, title %v, render %q; want rendered (requested), the script's title", on.Rendering, title(on.Report), on.Render)
	}
	if !on.Rendering.TitleChanged {
		t.Errorf("on: title_changed = false for a title a script set")
	}
	if r.party != "1" {
		t.Errorf("on: rendered for party %q, want the user (\"1\"), so the renderer serves users in turns", r.party)
	}
	shell, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://shop.example/", Render: mode("auto")})
	if err != nil {
		t.Fatal(err)
	}
	if shell.Rendering == nil || !shell.Rendering.Rendered || shell.Rendering.Reason == "" {
		t.Errorf("auto on a shell: rendering %+v, want rendered with a reason", shell.Rendering)
	}
	article, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://blog.example/", Render: mode("auto")})
	if err != nil {
		t.Fatal(err)
	}
	if article.Rendering == nil || article.Rendering.Rendered || article.Rendering.Reason == "" {
		t.Errorf("auto on a server-rendered article: rendering %+v, want not rendered, with a reason", article.Rendering)
	}
	if r.count() != 2 {
		t.Errorf("renders = %d, want 2 (on, auto on the shell)", r.count())
	}
	again, err := rs.Update(ctx, 1, on.ID, reports.ReportUpdate{Reanalyse: true, Render: mode("off")})
	if err != nil {
		t.Fatal(err)
	}
	if again.Render != pagecheck.RenderOff || again.Rendering != nil || title(again) != "Loading" {
		t.Errorf("re-analysis with render off: render %q, rendering %+v, title %v", again.Render, again.Rendering, title(again))
	}
	var ve *report.ValidationError
	if _, err := rs.Update(ctx, 1, on.ID, reports.ReportUpdate{Render: mode("on")}); !errors.As(err, &ve) || ve.Fields["render"] == nil {
		t.Errorf("render without reanalyze: err = %v, want a ValidationError on render", err)
	}
	if _, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://shop.example/", Render: mode("sometimes")}); !errors.As(err, &ve) || ve.Fields["render"] == nil {
		t.Errorf("render sometimes: err = %v, want a ValidationError on render", err)
	}
}

// TestRenderWithoutBrowser: render on is refused on render, naming what to
// install, where no browser can run (no renderer, or one without
// Chromium); auto is accepted and audits the HTML the server sent, saying
// why; a render that fails keeps that audit too, with the failure.
func TestRenderWithoutBrowser(t *testing.T) {
	ctx := context.Background()
	on, auto := "on", "auto"
	for name, r := range map[string]ports.Renderer{"no renderer": nil, "no chromium": &fakeRenderer{unavailable: ports.ErrNoBrowser}} {
		rs := reports.New(memory.NewReportStore(), reports.NewAnalyser(renderPages, reports.AnalyserConfig{Renderer: r}), cheapPasswords)
		var ve *report.ValidationError
		_, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://shop.example/", Render: &on})
		if !errors.As(err, &ve) || len(ve.Fields["render"]) == 0 || !strings.Contains(ve.Fields["render"][0], "chromium") {
			t.Errorf("%s: render on: err = %v, want a ValidationError on render naming chromium", name, err)
		}
		got, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://shop.example/", Render: &auto})
		if err != nil || got.Rendering == nil || got.Rendering.Rendered || got.Rendering.Reason != pagecheck.RenderUnavailable {
			t.Errorf("%s: render auto: rendering %+v, err %v; want not rendered, renderer_unavailable", name, got.Rendering, err)
		}
	}
	failing := &fakeRenderer{fail: &webpage.FetchError{Reason: "the browser crashed"}}
	rs := reports.New(memory.NewReportStore(), reports.NewAnalyser(renderPages, reports.AnalyserConfig{Renderer: failing}), cheapPasswords)
	got, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://shop.example/", Render: &on})
	if err != nil || got.Status != report.StatusGenerated || got.Rendering == nil || got.Rendering.Rendered ||
		!strings.Contains(got.Rendering.Reason, "the browser crashed") {
		t.Errorf("failed render: status %q, rendering %+v, err %v; want generated, not rendered, the crash as reason", got.Status, got.Rendering, err)
	}
}

// TestRenderQuotas: rendered analyses have their own daily quota, charged
// per user (another user still renders), and a user renders one page at a
// time, so one user's renders never hold the pool from another's.
func TestRenderQuotas(t *testing.T) {
	ctx := context.Background()
	on := "on"
	an := reports.NewAnalyser(renderPages, reports.AnalyserConfig{Renderer: &fakeRenderer{}, Limiter: fixedLimiter(),
		UserRenderDaily: ratelimit.Limit{Requests: 1, Window: 24 * time.Hour}, HostLimit: reports.NoLimit, AddressLimit: reports.NoLimit})
	rs := reports.New(memory.NewReportStore(), an, cheapPasswords)
	if _, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://shop.example/", Render: &on}); err != nil {
		t.Fatal(err)
	}
	var qe *reports.QuotaError
	if _, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://shop.example/", Render: &on}); !errors.As(err, &qe) || !qe.Daily || !qe.Rendered ||
		!strings.Contains(qe.Reason(), "rendered analyses a day") {
		t.Errorf("second render of the day: err = %v, want a daily render QuotaError", err)
	}
	if _, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://shop.example/"}); err != nil {
		t.Errorf("an analysis without render after the render quota: %v", err)
	}
	if _, err := rs.Create(ctx, 2, reports.NewReport{URL: "https://shop.example/", Render: &on}); err != nil {
		t.Errorf("another user's render: %v", err)
	}

	gated := &fakeRenderer{gate: make(chan struct{})}
	an = reports.NewAnalyser(renderPages, reports.AnalyserConfig{Renderer: gated})
	done := make(chan error, 1)
	go func() {
		_, err := an.Analyse(ctx, 1, "https://shop.example/", pagecheck.RenderOn)
		done <- err
	}()
	deadline := time.Now().Add(time.Minute)
	for gated.count() == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := an.Analyse(ctx, 1, "https://shop.example/", pagecheck.RenderOn); !errors.As(err, &qe) || !qe.Rendered || qe.Daily {
		t.Errorf("a second render of one user at once: err = %v, want a render QuotaError (at once)", err)
	}
	if _, err := an.Analyse(ctx, 2, "https://blog.example/", pagecheck.RenderOn); err != nil {
		t.Errorf("another user's render while user 1 renders: %v", err)
	}
	close(gated.gate)
	if err := <-done; err != nil {
		t.Errorf("user 1's render: %v", err)
	}
}
