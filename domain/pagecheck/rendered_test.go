package pagecheck_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/webpage"
)

// checkOf is the check id of a, failing the test when there is none.
func checkOf(t *testing.T, a pagecheck.Analysis, id string) pagecheck.Check {
	t.Helper()
	for _, cs := range a.Results {
		for _, c := range cs {
			if c.ID == id {
				return c
			}
		}
	}
	t.Fatalf("no check %s", id)
	return pagecheck.Check{}
}

// field is the comparison of name in r.
func field(t *testing.T, r *pagecheck.Rendering, name string) pagecheck.FieldChange {
	t.Helper()
	for _, c := range r.Compare {
		if c.Field == name {
			return c
		}
	}
	t.Fatalf("no field %s", name)
	return pagecheck.FieldChange{}
}

// wantFails fails the test unless c failed with exactly codes (passed
// when there are none).
func wantFails(t *testing.T, c pagecheck.Check, codes ...string) {
	t.Helper()
	if c.Passed != (len(codes) == 0) || !slices.Equal(c.Errors, codes) {
		t.Errorf("%s = passed %v %v (%s), want errors %v", c.ID, c.Passed, c.Errors, c.Message, codes)
	}
	if !c.Passed && c.Advice == "" {
		t.Errorf("%s failed without advice", c.ID)
	}
}

// A shell whose title, canonical, text and links only its script writes.
func TestAnalyseRenderedShell(t *testing.T) {
	const u = "https://shop.example/guides/spades"
	raw := fetchedHTML(u, fixture(t, "shell_raw.html"), "")
	a := pagecheck.AnalyseRendered(raw, renderedHTML(u, fixture(t, "shell_rendered.html")), pagecheck.DefaultWeights)
	r := a.Rendering
	if r == nil || !r.Rendered || !r.Settled || r.Reason != "" || r.URL != u || r.ElapsedMs != 1500 {
		t.Fatalf("Rendering = %+v", r)
	}
	for _, tc := range []struct {
		name, raw, rendered string
	}{
		{"title", "Loading…", "Garden spades: how to choose one"},
		{"meta_description", "", "A guide to choosing a garden spade."},
		{"canonical", "", u},
		{"h1", "", "Garden spades"},
		{"words", "0", "266"}, // the nav's 4 words, the h1's 2 and the paragraph's 260
		{"internal_links", "0", "2"},
		{"external_links", "0", "1"},
		{"json_ld", "0", "1"},
	} {
		got := field(t, r, tc.name)
		if got.Raw != tc.raw || got.Rendered != tc.rendered || !got.Changed {
			t.Errorf("%s = %+v, want %q -> %q", tc.name, got, tc.raw, tc.rendered)
		}
	}
	for _, name := range []string{"lang", "robots", "noindex", "hreflang"} {
		if got := field(t, r, name); got.Changed {
			t.Errorf("%s changed: %+v", name, got)
		}
	}
	if !r.ContentAddedByJS || !r.LinksAddedByJS || !r.TitleChanged || !r.CanonicalChanged || r.RobotsChanged {
		t.Errorf("flags: %+v", r)
	}
	wantLinks := []string{"https://shop.example/", "https://shop.example/guides/", "https://social.example/shop"}
	if !slices.Equal(r.AddedLinks, wantLinks) || r.AddedLinksTotal != 3 {
		t.Errorf("added links %v (%d), want %v", r.AddedLinks, r.AddedLinksTotal, wantLinks)
	}
	wantFails(t, checkOf(t, a, "rendered_content"), "content_added", "links_added", "title_changed")
	wantFails(t, checkOf(t, a, "rendered_canonical"), "added")
	wantFails(t, checkOf(t, a, "rendered_robots"))
	// The checks of Analyse read the rendered DOM.
	wantFails(t, checkOf(t, a, "title"))
	wantFails(t, checkOf(t, a, "meta_description"))
	if c := checkOf(t, pagecheck.Analyse(raw, pagecheck.DefaultWeights), "meta_description"); c.Passed {
		t.Error("the raw shell has a meta description")
	}
	if got, want := r.Issues(), []string{"content_needs_js", "rendered_canonical_differs"}; !slices.Equal(got, want) {
		t.Errorf("Issues = %v, want %v", got, want)
	}
}

// A page whose script adds noindex: the rendered analysis fails noindex
// and rendered_robots; the header is the raw response's on both sides.
func TestAnalyseRenderedNoindex(t *testing.T) {
	const u = "https://shop.example/sale"
	raw := fetchedHTML(u, fixture(t, "noindex_raw.html"), "")
	raw.Page.Header["X-Robots-Tag"] = []string{"noarchive"}
	a := pagecheck.AnalyseRendered(raw, renderedHTML(u, fixture(t, "noindex_rendered.html")), pagecheck.DefaultWeights)
	r := a.Rendering
	if got := field(t, r, "noindex"); got.Raw != "false" || got.Rendered != "true" || !got.Changed {
		t.Errorf("noindex = %+v", got)
	}
	if got := field(t, r, "robots"); got.Raw != "noarchive" || got.Rendered != "noindex, nofollow, noarchive" {
		t.Errorf("robots = %+v", got)
	}
	if !r.RobotsChanged || r.CanonicalChanged || r.ContentAddedByJS || r.LinksAddedByJS || r.TitleChanged {
		t.Errorf("flags: %+v", r)
	}
	wantFails(t, checkOf(t, a, "rendered_robots"), "noindex_added")
	wantFails(t, checkOf(t, a, "noindex"), "noindex")
	wantFails(t, checkOf(t, a, "rendered_canonical"))
	wantFails(t, checkOf(t, a, "rendered_content"))
	if got := r.Issues(); !slices.Equal(got, []string{"rendered_noindex_differs"}) {
		t.Errorf("Issues = %v", got)
	}
	// The other way round: the HTML's noindex, removed by the script.
	back := pagecheck.AnalyseRendered(fetchedHTML(u, fixture(t, "noindex_rendered.html"), ""), renderedHTML(u, fixture(t, "noindex_raw.html")), pagecheck.DefaultWeights)
	wantFails(t, checkOf(t, back, "rendered_robots"), "noindex_removed")
}

// A page loading scripts robots.txt disallows, a failing API call, a
// refused request and console errors.
func TestAnalyseRenderedLoaded(t *testing.T) {
	const u = "https://shop.example/catalogue"
	b := fixture(t, "blocked_raw.html")
	raw := fetchedHTML(u, b, string(fixture(t, "robots.txt")))
	rd := renderedHTML(u, b)
	rd.Requests = append(rd.Requests,
		webpage.Request{URL: "https://shop.example/assets/site.css", Type: "stylesheet", Status: 200, Bytes: 1000},
		webpage.Request{URL: "https://shop.example/assets/app.js", Type: "script", Status: 200, Bytes: 5000},
		webpage.Request{URL: "https://shop.example/assets/public/logo.svg", Type: "image", Status: 200, Bytes: 300},
		webpage.Request{URL: "https://cdn.other.example/assets/lib.js", Type: "script", Status: 200, Bytes: 7000},
		webpage.Request{URL: "https://shop.example/api/stock", Type: "fetch", Status: 500, Bytes: 20},
		webpage.Request{URL: "https://shop.example/api/price", Type: "xhr", Failed: "net::ERR_CONNECTION_RESET"},
		webpage.Request{URL: "http://10.0.0.7/pixel", Type: "image", Failed: "refused: private address", Refused: true},
		webpage.Request{URL: "https://shop.example/video.mp4", Type: "media", Failed: "net::ERR_ABORTED"},
		webpage.Request{URL: "https://shop.example/api/poll", Type: "fetch"}, // pending when the render stopped
	)
	rd.RequestsOmitted = 3
	rd.Timing.Bytes = 0 // summed from the requests
	rd.Console = []webpage.ConsoleEntry{{Kind: "error", Text: "Failed to load resource: 500", URL: "https://shop.example/api/stock"},
		{Kind: "exception", Text: "TypeError: price is undefined", URL: "https://shop.example/assets/app.js"}}
	a := pagecheck.AnalyseRendered(raw, rd, pagecheck.DefaultWeights)
	l := a.Rendering.Loaded
	if l.Requests != 13 || l.RequestsOmitted != 3 || l.Bytes != int64(len(b))+13320 {
		t.Errorf("requests %d (%d omitted), %d bytes", l.Requests, l.RequestsOmitted, l.Bytes)
	}
	wantTypes := []pagecheck.TypeLoad{{Type: "document", Count: 1, Bytes: int64(len(b))}, {Type: "fetch", Count: 2, Bytes: 20},
		{Type: "image", Count: 2, Bytes: 300}, {Type: "media", Count: 1}, {Type: "script", Count: 2, Bytes: 12000}, {Type: "stylesheet", Count: 1, Bytes: 1000}, {Type: "xhr", Count: 1}}
	if !reflect.DeepEqual(l.ByType, wantTypes) {
		t.Errorf("by type %+v, want %+v", l.ByType, wantTypes)
	}
	wantFailed := []pagecheck.FailedRequest{{URL: "https://shop.example/api/stock", Type: "fetch", Status: 500, Reason: "http_error"},
		{URL: "https://shop.example/api/price", Type: "xhr", Reason: "net::ERR_CONNECTION_RESET"}}
	if !reflect.DeepEqual(l.Failed, wantFailed) || l.FailedTotal != 2 {
		t.Errorf("failed %+v", l.Failed)
	}
	if !slices.Equal(l.Refused, []string{"http://10.0.0.7/pixel"}) || l.RefusedTotal != 1 {
		t.Errorf("refused %v", l.Refused)
	}
	wantBlocked := []pagecheck.BlockedRequest{{URL: "https://shop.example/assets/site.css", Type: "stylesheet", Rule: "Disallow: /assets/"},
		{URL: "https://shop.example/assets/app.js", Type: "script", Rule: "Disallow: /assets/"}}
	if !reflect.DeepEqual(l.Blocked, wantBlocked) || l.BlockedTotal != 2 {
		t.Errorf("blocked %+v", l.Blocked)
	}
	if l.Errors != 1 || l.Exceptions != 1 || len(l.Console) != 2 {
		t.Errorf("console %+v", l)
	}
	c := checkOf(t, a, "blocked_resources")
	wantFails(t, c, "blocked")
	if len(c.Offending) != 2 || !strings.Contains(c.Offending[1], "app.js (script, Disallow: /assets/)") {
		t.Errorf("blocked_resources offending %v", c.Offending)
	}
	wantFails(t, checkOf(t, a, "failed_requests"), "failed")
	wantFails(t, checkOf(t, a, "js_errors"), "exceptions", "console_errors")
	if got, want := a.Rendering.Issues(), []string{"js_errors", "blocked_resources"}; !slices.Equal(got, want) {
		t.Errorf("Issues = %v, want %v", got, want)
	}
	// Without robots.txt nothing is blocked.
	raw.Robots = nil
	if l := pagecheck.AnalyseRendered(raw, rd, pagecheck.DefaultWeights).Rendering.Loaded; l.BlockedTotal != 0 || l.Blocked != nil {
		t.Errorf("blocked without robots.txt: %+v", l.Blocked)
	}
}

// A page rendered as served changes nothing; with good lab timings every
// rendered-only check passes.
func TestAnalyseRenderedSame(t *testing.T) {
	const u = "https://shop.example/guide"
	b := fixture(t, "article.html")
	a := pagecheck.AnalyseRendered(fetchedHTML(u, b, ""), renderedHTML(u, b), pagecheck.DefaultWeights)
	for _, c := range a.Rendering.Compare {
		if c.Changed {
			t.Errorf("%s changed: %+v", c.Field, c)
		}
	}
	for _, info := range pagecheck.Catalogue() {
		if c := checkOf(t, a, info.ID); info.RenderedOnly && !c.Passed {
			t.Errorf("%s failed: %s", c.ID, c.Message)
		}
	}
	if got := a.Rendering.Issues(); got != nil {
		t.Errorf("Issues = %v", got)
	}
	if plain := pagecheck.Analyse(fetchedHTML(u, b, ""), pagecheck.DefaultWeights); plain.Rendering != nil {
		t.Error("Analyse set Rendering")
	}
}

// Analyse runs exactly the checks of Catalogue that are not rendered-only,
// AnalyseRendered all of them, each once, in Catalogue's order within a
// category.
func TestAnalyseChecksAgainstCatalogue(t *testing.T) {
	const u = "https://shop.example/guide"
	b := fixture(t, "article.html")
	ids := func(a pagecheck.Analysis) []string {
		var out []string
		for _, cat := range pagecheck.Categories {
			for _, c := range a.Results[cat] {
				out = append(out, c.ID)
			}
		}
		return out
	}
	var plain, all []string
	for _, c := range pagecheck.Catalogue() {
		all = append(all, c.ID)
		if !c.RenderedOnly {
			plain = append(plain, c.ID)
		}
	}
	if got := ids(pagecheck.Analyse(fetchedHTML(u, b, ""), pagecheck.DefaultWeights)); !slices.Equal(got, plain) {
		t.Errorf("Analyse ran %v, want %v", got, plain)
	}
	if got := ids(pagecheck.AnalyseRendered(fetchedHTML(u, b, ""), renderedHTML(u, b), pagecheck.DefaultWeights)); !slices.Equal(got, all) {
		t.Errorf("AnalyseRendered ran %v, want %v", got, all)
	}
}

// The rendered-only checks are in Catalogue, marked, with their category
// and importance, and give advice for every failure code they use.
func TestCatalogueRenderedChecks(t *testing.T) {
	want := map[string]pagecheck.Category{
		"lcp": pagecheck.Performance, "cls": pagecheck.Performance, "tbt": pagecheck.Performance, "fcp": pagecheck.Performance,
		"rendered_content": pagecheck.SEO, "rendered_canonical": pagecheck.SEO, "rendered_robots": pagecheck.SEO, "blocked_resources": pagecheck.SEO,
		"js_errors": pagecheck.Miscellaneous, "failed_requests": pagecheck.Miscellaneous,
	}
	got := map[string]pagecheck.Category{}
	for _, c := range pagecheck.Catalogue() {
		if c.RenderedOnly {
			got[c.ID] = c.Category
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rendered-only checks %v, want %v", got, want)
	}
	codes := map[string][]string{
		"lcp": {"needs_improvement", "poor"}, "cls": {"needs_improvement", "poor"}, "tbt": {"needs_improvement", "poor"}, "fcp": {"needs_improvement", "poor"},
		"rendered_content": {"content_added", "links_added", "title_changed"}, "rendered_canonical": {"added", "removed", "changed"},
		"rendered_robots": {"noindex_added", "noindex_removed"}, "blocked_resources": {"blocked"},
		"js_errors": {"exceptions", "console_errors"}, "failed_requests": {"failed"},
	}
	for id, cs := range codes {
		for _, code := range cs {
			if a, ok := pagecheck.AdviceFor(id, code); !ok || a == "" {
				t.Errorf("no advice for %s %s", id, code)
			}
		}
	}
}

// The grades at the thresholds' edges: a value at a threshold is in the
// better band.
func TestLabGrades(t *testing.T) {
	ms := func(n float64) time.Duration { return time.Duration(n * float64(time.Millisecond)) }
	for _, tc := range []struct {
		v          float64
		good, poor float64
		want       pagecheck.Grade
	}{
		{2500, pagecheck.LCPGoodMs, pagecheck.LCPPoorMs, pagecheck.GradeGood},
		{2500.5, pagecheck.LCPGoodMs, pagecheck.LCPPoorMs, pagecheck.GradeNeedsImprovement},
		{4000, pagecheck.LCPGoodMs, pagecheck.LCPPoorMs, pagecheck.GradeNeedsImprovement},
		{4001, pagecheck.LCPGoodMs, pagecheck.LCPPoorMs, pagecheck.GradePoor},
		{0.1, pagecheck.CLSGood, pagecheck.CLSPoor, pagecheck.GradeGood},
		{0.25, pagecheck.CLSGood, pagecheck.CLSPoor, pagecheck.GradeNeedsImprovement},
		{0.251, pagecheck.CLSGood, pagecheck.CLSPoor, pagecheck.GradePoor},
		{1400, pagecheck.DOMGood, pagecheck.DOMPoor, pagecheck.GradeNeedsImprovement},
		{1401, pagecheck.DOMGood, pagecheck.DOMPoor, pagecheck.GradePoor},
	} {
		if got := pagecheck.GradeOf(tc.v, tc.good, tc.poor); got != tc.want {
			t.Errorf("GradeOf(%g, %g, %g) = %s, want %s", tc.v, tc.good, tc.poor, got, tc.want)
		}
	}
	lab := pagecheck.LabOf(webpage.Timing{TTFB: ms(800), FCP: ms(1800.004), LCP: ms(4000), CLS: 0.2504, TBT: ms(600.001), DOMNodes: 801, LCPElement: strings.Repeat("<img>", 100)})
	want := pagecheck.Lab{
		TTFB: pagecheck.Metric{Value: 800, Grade: pagecheck.GradeGood}, FCP: pagecheck.Metric{Value: 1800, Grade: pagecheck.GradeGood},
		LCP: pagecheck.Metric{Value: 4000, Grade: pagecheck.GradeNeedsImprovement}, CLS: pagecheck.Metric{Value: 0.25, Grade: pagecheck.GradeNeedsImprovement},
		TBT: pagecheck.Metric{Value: 600, Grade: pagecheck.GradeNeedsImprovement}, DOMSize: pagecheck.Metric{Value: 801, Grade: pagecheck.GradeNeedsImprovement},
		LCPElement: lab.LCPElement,
	}
	if !reflect.DeepEqual(lab, want) {
		t.Errorf("LabOf = %+v, want %+v", lab, want)
	}
	if n := utf8.RuneCountInString(lab.LCPElement); n != pagecheck.MaxValueRunes || !strings.HasSuffix(lab.LCPElement, pagecheck.Ellipsis) {
		t.Errorf("LCP element of %d runes: %q", n, lab.LCPElement)
	}
	// Nothing painted: nothing measured, and the checks do not judge.
	none := pagecheck.LabOf(webpage.Timing{})
	for name, m := range map[string]pagecheck.Metric{"ttfb": none.TTFB, "fcp": none.FCP, "lcp": none.LCP, "cls": none.CLS, "tbt": none.TBT, "dom": none.DOMSize} {
		if m.Grade != pagecheck.GradeUnmeasured || m.Value != 0 {
			t.Errorf("%s of no timing = %+v", name, m)
		}
	}
	// The checks pass only when good.
	const u = "https://shop.example/guide"
	b := fixture(t, "article.html")
	rd := renderedHTML(u, b)
	rd.Timing = webpage.Timing{FCP: ms(3001), LCP: ms(2600), CLS: 0, TBT: 0, DOMNodes: 100}
	a := pagecheck.AnalyseRendered(fetchedHTML(u, b, ""), rd, pagecheck.DefaultWeights)
	wantFails(t, checkOf(t, a, "lcp"), "needs_improvement")
	wantFails(t, checkOf(t, a, "fcp"), "poor")
	wantFails(t, checkOf(t, a, "cls"))
	wantFails(t, checkOf(t, a, "tbt"))
	if got := a.Rendering.Issues(); !slices.Equal(got, []string{"slow_lcp"}) {
		t.Errorf("Issues = %v", got)
	}
	rd.Timing = webpage.Timing{}
	a = pagecheck.AnalyseRendered(fetchedHTML(u, b, ""), rd, pagecheck.DefaultWeights)
	for _, id := range []string{"lcp", "cls", "tbt", "fcp"} {
		if c := checkOf(t, a, id); !c.Passed || !strings.Contains(c.Message, "not checked") {
			t.Errorf("%s unmeasured = %v %q", id, c.Passed, c.Message)
		}
	}
}

// A rendering that loaded too much stays bounded, and a Rendering (and the
// Analysis holding it) reads back from JSON deep-equal.
func TestRenderingBoundedRoundTrip(t *testing.T) {
	const u = "https://shop.example/catalogue"
	b := fixture(t, "blocked_raw.html")
	rd := renderedHTML(u, fixture(t, "shell_rendered.html"))
	long := strings.Repeat("x", 1000)
	for i := range 100 {
		rd.Requests = append(rd.Requests,
			webpage.Request{URL: "https://shop.example/assets/" + long + string(rune('a'+i%26)), Type: "script", Status: 404},
			webpage.Request{URL: "http://10.0.0.1/" + long, Type: "image" + long, Refused: true, Failed: "refused"})
		rd.Console = append(rd.Console, webpage.ConsoleEntry{Kind: "exception", Text: long, URL: long})
	}
	for i := range 30 {
		rd.Requests = append(rd.Requests, webpage.Request{URL: "https://cdn.other.example/" + string(rune('a'+i)), Type: "kind" + string(rune('A'+i)), Status: 200})
	}
	rd.Timing.LCPElement = long
	a := pagecheck.AnalyseRendered(fetchedHTML(u, b, string(fixture(t, "robots.txt"))), rd, pagecheck.DefaultWeights)
	r := a.Rendering
	l := r.Loaded
	if len(l.Failed) != pagecheck.MaxValueItems || l.FailedTotal != 100 || len(l.Blocked) != pagecheck.MaxValueItems || l.BlockedTotal != 100 ||
		len(l.Refused) != pagecheck.MaxValueItems || l.RefusedTotal != 100 || len(l.Console) != pagecheck.MaxValueItems || l.Exceptions != 100 {
		t.Errorf("not bounded: %d/%d failed, %d/%d blocked, %d/%d refused, %d/%d console", len(l.Failed), l.FailedTotal, len(l.Blocked), l.BlockedTotal,
			len(l.Refused), l.RefusedTotal, len(l.Console), l.Exceptions)
	}
	if len(l.ByType) != pagecheck.MaxValueItems || l.ByType[0].Type != "document" || !slices.IsSortedFunc(l.ByType, func(a, b pagecheck.TypeLoad) int { return strings.Compare(a.Type, b.Type) }) {
		t.Errorf("%d types, first %q", len(l.ByType), l.ByType[0].Type)
	}
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(js) > 64<<10 {
		t.Errorf("Rendering of %d bytes", len(js))
	}
	var back pagecheck.Rendering
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&back, r) {
		t.Errorf("round trip differs:\n%+v\n%+v", back, *r)
	}
	strs := []string{r.URL, r.Lab.LCPElement}
	strs = append(strs, r.AddedLinks...)
	strs = append(strs, l.Refused...)
	for _, c := range r.Compare {
		strs = append(strs, c.Raw, c.Rendered)
	}
	for _, f := range l.Failed {
		strs = append(strs, f.URL, f.Type, f.Reason)
	}
	for _, b := range l.Blocked {
		strs = append(strs, b.URL, b.Type, b.Rule)
	}
	for _, c := range l.Console {
		strs = append(strs, c.Kind, c.Text, c.URL)
	}
	for _, tl := range l.ByType {
		strs = append(strs, tl.Type)
	}
	for _, x := range strs {
		if n := utf8.RuneCountInString(x); n > pagecheck.MaxValueRunes {
			t.Errorf("a string of %d runes: %.40q...", n, x)
		}
	}
	// The whole analysis too, its checks included.
	js, err = json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var backA pagecheck.Analysis
	if err := json.Unmarshal(js, &backA); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(backA, a) {
		t.Error("the analysis does not read back deep-equal")
	}
	// An empty rendering too (nil lists stay nil).
	empty := pagecheck.AnalyseRendered(fetchedHTML(u, b, ""), &webpage.Rendered{}, pagecheck.DefaultWeights).Rendering
	js, _ = json.Marshal(empty)
	var backE pagecheck.Rendering
	if err := json.Unmarshal(js, &backE); err != nil || !reflect.DeepEqual(&backE, empty) {
		t.Errorf("empty rendering round trip: %v\n%+v\n%+v", err, backE, *empty)
	}
}

// TestNotRenderedJSON: the Rendering of an analysis that did not render
// says only that and why, and reads back as the same value.
func TestNotRenderedJSON(t *testing.T) {
	a := pagecheck.NotRendered(pagecheck.Analysis{}, pagecheck.ReasonServerRendered)
	b, err := json.Marshal(a.Rendering)
	if err != nil || string(b) != `{"rendered":false,"reason":"server_rendered"}` {
		t.Fatalf("JSON = %s, %v", b, err)
	}
	var back pagecheck.Rendering
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(&back, a.Rendering) {
		t.Errorf("read back %+v, %v; want %+v", back, err, a.Rendering)
	}
}
