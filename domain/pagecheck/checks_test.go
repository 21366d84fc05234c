package pagecheck_test

import (
	"strings"
	"testing"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/webpage"
)

// el builds an element; attrs are key, value pairs.
func el(tag string, attrs []string, children ...*webpage.Node) *webpage.Node {
	n := &webpage.Node{Type: webpage.ElementNode, Tag: tag, Children: children}
	for i := 0; i+1 < len(attrs); i += 2 {
		n.Attrs = append(n.Attrs, webpage.Attr{Key: attrs[i], Val: attrs[i+1]})
	}
	return n
}

// doc is a document whose <head> holds head.
func doc(head ...*webpage.Node) *webpage.Node {
	return &webpage.Node{Type: webpage.DocumentNode, Children: []*webpage.Node{el("html", nil, el("head", nil, head...), el("body", nil))}}
}

func check(t *testing.T, f *webpage.Fetched, id string) pagecheck.Check {
	t.Helper()
	for _, cs := range pagecheck.Analyse(f, pagecheck.DefaultWeights).Results {
		for _, c := range cs {
			if c.ID == id {
				return c
			}
		}
	}
	t.Fatalf("no check %s", id)
	return pagecheck.Check{}
}

func TestRobotsRules(t *testing.T) {
	const robots = "User-agent: googlebot\nDisallow: /\n\nUser-agent: other\nUser-agent: *\n" +
		"Disallow: /private/\nAllow: /private/open$\nDisallow: /*.pdf$\nDisallow: /search?\n# Disallow: /all\n"
	for _, tc := range []struct {
		path, rule string
	}{
		{"/", ""},
		{"/private/x", "Disallow: /private/"},
		{"/private/open", ""},
		{"/private/open/more", "Disallow: /private/"},
		{"/docs/a.pdf", "Disallow: /*.pdf$"},
		{"/docs/a.pdf?x", ""},
		{"/search?q=1", "Disallow: /search?"},
		{"/search", ""},
	} {
		f := &webpage.Fetched{Page: webpage.Response{URL: "https://r.example" + tc.path, Status: 200},
			Robots: &webpage.Response{Status: 200, Body: []byte(robots)}}
		c := check(t, f, "robots")
		if got, _ := c.Value.(string); got != tc.rule || c.Passed != (tc.rule == "") {
			t.Errorf("%s: robots = %v %q, want rule %q", tc.path, c.Passed, got, tc.rule)
		}
	}
	// No robots.txt, or one that is not a success: nothing is disallowed,
	// and no sitemap is listed.
	for _, r := range []*webpage.Response{nil, {Status: 404, Body: []byte("Disallow: /")}} {
		f := &webpage.Fetched{Page: webpage.Response{URL: "https://r.example/", Status: 200}, Robots: r}
		if c := check(t, f, "robots"); !c.Passed {
			t.Errorf("robots %+v: %v", r, c.Errors)
		}
		if c := check(t, f, "sitemap"); c.Passed {
			t.Errorf("robots %+v: sitemap passed", r)
		}
	}
}

func TestHreflang(t *testing.T) {
	alt := func(lang, href string) *webpage.Node {
		return el("link", []string{"rel", "alternate", "hreflang", lang, "href", href})
	}
	for _, tc := range []struct {
		name string
		head []*webpage.Node
		errs string
	}{
		{"none", nil, ""},
		{"consistent", []*webpage.Node{alt("en", "https://h.example/"), alt("zh-Hant-TW", "https://h.example/tw/"), alt("es-419", "https://h.example/es/"), alt("x-default", "https://h.example/")}, ""},
		{"self through canonical", []*webpage.Node{el("link", []string{"rel", "canonical", "href", "https://h.example/"}), alt("de", "https://h.example/")}, ""},
		{"no self", []*webpage.Node{alt("de", "https://h.example/de/")}, "missing_self"},
		{"bad code", []*webpage.Node{alt("english", "https://h.example/"), alt("en_GB", "https://h.example/")}, "invalid_code"},
		{"duplicate", []*webpage.Node{alt("en", "https://h.example/"), alt("EN", "https://h.example/en/")}, "duplicate"},
		{"relative", []*webpage.Node{alt("en", "/")}, "relative,missing_self"},
	} {
		f := &webpage.Fetched{Page: webpage.Response{URL: "https://h.example/", Status: 200}, Document: doc(tc.head...)}
		c := check(t, f, "hreflang")
		if got := strings.Join(c.Errors, ","); got != tc.errs || c.Passed != (tc.errs == "") {
			t.Errorf("%s: hreflang = %v %q, want %q", tc.name, c.Passed, got, tc.errs)
		}
	}
}

func TestCanonical(t *testing.T) {
	canon := func(href string) *webpage.Node { return el("link", []string{"rel", "canonical", "href", href}) }
	for _, tc := range []struct {
		name string
		head []*webpage.Node
		errs string
	}{
		{"missing", nil, "missing"},
		{"self", []*webpage.Node{canon("https://c.example/page")}, ""},
		{"www variant", []*webpage.Node{canon("https://www.c.example/page")}, ""},
		{"relative", []*webpage.Node{canon("/page")}, "relative"},
		{"elsewhere", []*webpage.Node{canon("https://other.example/page")}, "other_host"},
		{"two", []*webpage.Node{canon("https://c.example/a"), canon("https://c.example/b")}, "too_many"},
	} {
		f := &webpage.Fetched{Page: webpage.Response{URL: "https://c.example/page", Status: 200}, Document: doc(tc.head...)}
		if c := check(t, f, "canonical"); strings.Join(c.Errors, ",") != tc.errs || c.Passed != (tc.errs == "") {
			t.Errorf("%s: canonical = %v %v, want %q", tc.name, c.Passed, c.Errors, tc.errs)
		}
	}
}

func TestSecurityHeaders(t *testing.T) {
	for _, tc := range []struct {
		name   string
		url    string
		header map[string][]string
		id     string
		errs   string
	}{
		{"hsts long", "https://s.example/", map[string][]string{"Strict-Transport-Security": {"max-age=63072000; preload"}}, "hsts", ""},
		{"hsts short", "https://s.example/", map[string][]string{"Strict-Transport-Security": {"max-age=300"}}, "hsts", "too_short"},
		{"hsts on http", "http://s.example/", map[string][]string{"Strict-Transport-Security": {"max-age=63072000"}}, "hsts", "not_https"},
		{"csp report-only", "https://s.example/", map[string][]string{"Content-Security-Policy-Report-Only": {"default-src 'self'"}}, "content_security_policy", "missing"},
		{"nosniff", "https://s.example/", map[string][]string{"X-Content-Type-Options": {"NoSniff"}}, "x_content_type_options", ""},
		{"sniff", "https://s.example/", map[string][]string{"X-Content-Type-Options": {"sniff"}}, "x_content_type_options", "invalid"},
		{"bare server", "https://s.example/", map[string][]string{"Server": {"nginx"}}, "server_signature", ""},
		{"versioned server", "https://s.example/", map[string][]string{"Server": {"nginx/1.25.3"}}, "server_signature", "exposed"},
		{"noindex header", "https://s.example/", map[string][]string{"X-Robots-Tag": {"googlebot: noindex"}}, "noindex", "noindex"},
		{"harmless header", "https://s.example/", map[string][]string{"X-Robots-Tag": {"unavailable_after: 25 Jun 2030 15:00:00 PST"}}, "noindex", ""},
	} {
		f := &webpage.Fetched{Page: webpage.Response{URL: tc.url, Status: 200, Header: tc.header}}
		if c := check(t, f, tc.id); strings.Join(c.Errors, ",") != tc.errs || c.Passed != (tc.errs == "") {
			t.Errorf("%s: %s = %v %v, want %q", tc.name, tc.id, c.Passed, c.Errors, tc.errs)
		}
	}
}

// TestNotHTMLFailsWithoutPanicking: a page with no document fails the HTML
// checks as missing. The checks that look for faults in its links, images
// or plugins find none and pass (a PDF has no javascript: links), so its
// score depends on how many such checks there are: it scores 51 of 46
// checks (47 of 40); what must hold is that it is never rated good.
func TestNotHTMLFailsWithoutPanicking(t *testing.T) {
	f := &webpage.Fetched{Page: webpage.Response{URL: "https://n.example/file.pdf", Status: 200}}
	a := pagecheck.Analyse(f, pagecheck.DefaultWeights)
	for _, id := range []string{"title", "meta_description", "headings", "language", "favicon", "canonical", "meta_viewport", "charset", "doctype", "structured_data"} {
		if c := check(t, f, id); c.Passed || c.Errors[0] != "missing" {
			t.Errorf("%s = %v %v", id, c.Passed, c.Errors)
		}
	}
	if a.Rating == pagecheck.Good {
		t.Errorf("rating of a non-HTML page = %s (score %d)", a.Rating, a.Score)
	}
}

// TestCatalogue: 46 checks Analyse runs and 10 only AnalyseRendered runs,
// each once, titled, in category order.
func TestCatalogue(t *testing.T) {
	cat := pagecheck.Catalogue()
	rendered := 0
	for _, c := range cat {
		if c.RenderedOnly {
			rendered++
		}
	}
	if len(cat)-rendered != 46 || rendered != 10 {
		t.Fatalf("%d checks and %d rendered-only, want 46 and 10", len(cat)-rendered, rendered)
	}
	seen := map[string]bool{}
	for i, c := range cat {
		if seen[c.ID] || c.Title == "" {
			t.Errorf("check %d: %+v duplicated or untitled", i, c)
		}
		seen[c.ID] = true
		if i > 0 && categoryIndex(c.Category) < categoryIndex(cat[i-1].Category) {
			t.Errorf("%s is out of category order", c.ID)
		}
	}
}

func categoryIndex(c pagecheck.Category) int {
	for i, k := range pagecheck.Categories {
		if k == c {
			return i
		}
	}
	return -1
}

// A page that answers an error status rates bad whatever else it passes:
// what it serves is an error page, not the page asked for.
func TestErrorPageRatesBad(t *testing.T) {
	ok := pagecheck.Analyse(indexedPage(), pagecheck.DefaultWeights)
	if ok.Rating == pagecheck.Bad {
		t.Fatalf("the fixture rates bad at 200 (score %d): it cannot show the cap", ok.Score)
	}
	for _, status := range []int{404, 410, 500, 503} {
		f := indexedPage()
		f.Page.Status = status
		a := pagecheck.Analyse(f, pagecheck.DefaultWeights)
		if a.Rating != pagecheck.Bad || a.Score >= ok.Score {
			t.Errorf("the page at %d = %d %s, want bad (at 200: %d %s)", status, a.Score, a.Rating, ok.Score, ok.Rating)
		}
	}
}
