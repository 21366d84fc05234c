package pagecheck

import (
	"time"

	"github.com/pinsight/pinsight/domain/robots"
	"github.com/pinsight/pinsight/domain/webpage"
)

// Rendering is what a rendered analysis adds to an Analysis: how the page
// a browser built differs from the raw HTML, what it loaded and its lab
// performance. Every list is bounded (maxValueItems entries, strings cut to
// maxValueRunes like a check's value) with the total counted beside it,
// and an empty list is nil, so a stored Rendering reads back deep-equal to
// the fresh one.
type Rendering struct {
	// Rendered is true when a browser rendered the page (always, for
	// AnalyseRendered).
	Rendered bool `json:"rendered"`
	// Reason says why the page was rendered: the caller fills it, with
	// NeedsRendering's reason for an automatic choice ("app_shell", ...)
	// or its own ("requested"); "" when unknown.
	Reason string `json:"reason,omitempty"`
	// Settled is false when the network never went idle before the
	// renderer's deadline (webpage.Rendered.Settled).
	Settled bool `json:"settled"`
	// URL is the document's URL once the browser settled.
	URL string `json:"url"`
	// ElapsedMs is the render's time, from navigation to the snapshot.
	ElapsedMs int64 `json:"elapsed_ms"`
	// Compare is raw versus rendered, field by field (CompareFields order).
	Compare []FieldChange `json:"compare"`
	// ContentAddedByJS: the rendered DOM has much more visible text than
	// the raw HTML (contentAddedByJS).
	ContentAddedByJS bool `json:"content_added_by_js"`
	// LinksAddedByJS: the rendered DOM has links the raw HTML lacks,
	// listed in AddedLinks (at most maxValueItems) and counted in
	// AddedLinksTotal.
	LinksAddedByJS  bool     `json:"links_added_by_js"`
	AddedLinks      []string `json:"added_links,omitempty"`
	AddedLinksTotal int      `json:"added_links_total"`
	// CanonicalChanged, TitleChanged: the canonical URL, the title differ
	// between raw and rendered.
	CanonicalChanged bool `json:"canonical_changed"`
	TitleChanged     bool `json:"title_changed"`
	// RobotsChanged: noindex differs between raw and rendered (robots meta
	// tags, with the raw response's X-Robots-Tag headers on both sides).
	RobotsChanged bool `json:"robots_changed"`
	// Loaded is what the page loaded.
	Loaded Loaded `json:"loaded"`
	// Lab is the browser's lab performance, graded.
	Lab Lab `json:"lab"`
}

// AnalyseRendered runs every check of Analyse, and the rendered-only ones,
// over the page as r, its rendering, shows it, and scores them with w: the
// page analysed is a copy of raw whose body and document are r's HTML and
// DOM and whose status is r's (raw's when r has none), with raw's URL,
// headers, robots.txt, 404 probe and follow-ups. Rendering holds the
// comparison with raw; its Reason is left for the caller.
func AnalyseRendered(raw *webpage.Fetched, r *webpage.Rendered, w Weights) Analysis {
	rawPage := newPage(raw)
	p := newPage(RenderedPage(raw, r))
	rc := &renderCtx{p: p, raw: rawPage.facts(), now: p.facts(), rawRobots: rawPage.robotsText(), r: r}
	rc.rendering = rc.build()
	a := p.analyseWith(w, rc)
	a.Rendering = rc.rendering
	return a
}

// RenderedPage is raw as r, its rendering, shows it: the rendered HTML
// and document (and status, when the browser gave one) with raw's
// request, headers, robots.txt and follow-ups. Index it for the rendered
// page's facts.
func RenderedPage(raw *webpage.Fetched, r *webpage.Rendered) *webpage.Fetched {
	rendered := *raw
	rendered.Page.Body = r.HTML
	rendered.Document = r.Document
	if r.Status != 0 {
		rendered.Page.Status = r.Status
	}
	return &rendered
}

// renderCtx is what the rendered-only checks read: the rendered page, the
// facts of both versions, the rendering and what was made of it.
type renderCtx struct {
	p         *page
	raw, now  Facts
	rawRobots string // the raw page's robotsText
	r         *webpage.Rendered
	rendering *Rendering
	group     *robots.Group // robots.txt's rules for every crawler, once read
}

// build makes the Rendering of rc.
func (rc *renderCtx) build() *Rendering {
	r := rc.r
	out := &Rendering{Rendered: true, Settled: r.Settled, URL: cut(r.URL, maxValueRunes), ElapsedMs: r.Elapsed.Milliseconds()}
	rc.compare(out)
	out.Loaded = rc.loaded()
	out.Lab = LabOf(r.Timing)
	return out
}

// ms is d in milliseconds, as a float.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// The crawl issue types a rendered page can show (domain/crawl's
// RenderedCatalogue describes them), as Rendering.Issues names them.
const (
	IssueContentNeedsJS           = "content_needs_js"
	IssueRenderedCanonicalDiffers = "rendered_canonical_differs"
	IssueRenderedNoindexDiffers   = "rendered_noindex_differs"
	IssueJSErrors                 = "js_errors"
	IssueBlockedResources         = "blocked_resources"
	IssueSlowLCP                  = "slow_lcp"
	IssueLayoutShift              = "layout_shift"
)

// Issues names the crawl issue types r shows, in the order above, each
// when the rendered-only check behind it fails: content_needs_js when
// scripts write much of the text or add links (rendered_content, a
// changed title aside), rendered_canonical_differs and
// rendered_noindex_differs when scripts change the canonical URL or
// noindex, js_errors on a console error or uncaught exception,
// blocked_resources when robots.txt disallows a resource of the page's
// origin, slow_lcp and layout_shift when LCP or CLS is measured and not
// good. None for a nil r.
func (r *Rendering) Issues() []string {
	if r == nil {
		return nil
	}
	var out []string
	add := func(ok bool, name string) {
		if ok {
			out = append(out, name)
		}
	}
	add(r.ContentAddedByJS || r.LinksAddedByJS, IssueContentNeedsJS)
	add(r.CanonicalChanged, IssueRenderedCanonicalDiffers)
	add(r.RobotsChanged, IssueRenderedNoindexDiffers)
	add(r.Loaded.Errors+r.Loaded.Exceptions > 0, IssueJSErrors)
	add(r.Loaded.BlockedTotal > 0, IssueBlockedResources)
	add(failing(r.Lab.LCP), IssueSlowLCP)
	add(failing(r.Lab.CLS), IssueLayoutShift)
	return out
}

// failing reports whether m's check fails: measured and not good.
func failing(m Metric) bool { return m.Grade == GradeNeedsImprovement || m.Grade == GradePoor }
