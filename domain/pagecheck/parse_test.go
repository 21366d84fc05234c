package pagecheck

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/webpage"
)

// Tests of the parsers behind the checks: the Link header, robots
// directives and JSON-LD.

func TestParseLinkHeader(t *testing.T) {
	got := parseLinkHeader([]string{
		`<https://a.example/>; rel="canonical", <https://a.example/fr/>; rel=alternate; hreflang=fr`,
		`<https://a.example/x,y>; rel="alternate preload"; hreflang="de-AT"; title="a, \"b\""`,
		`garbage, <https://a.example/ok>; REL=Canonical`,
		`<https://a.example/bad> junk; rel=canonical, <https://a.example/after>; rel="next"`,
		`<unterminated; rel=canonical`,
		`<https://a.example/two-rels>; rel=canonical; rel=alternate`,
	})
	type link struct {
		target, hreflang string
		rel              []string
	}
	want := []link{
		{"https://a.example/", "", []string{"canonical"}},
		{"https://a.example/fr/", "fr", []string{"alternate"}},
		{"https://a.example/x,y", "de-AT", []string{"alternate", "preload"}},
		{"https://a.example/ok", "", []string{"canonical"}},
		{"https://a.example/after", "", []string{"next"}},
		{"https://a.example/two-rels", "", []string{"canonical"}}, // only the first rel counts
	}
	var have []link
	for _, l := range got {
		have = append(have, link{l.target, l.hreflang, l.rel})
	}
	if !reflect.DeepEqual(have, want) {
		t.Errorf("links:\n got %q\nwant %q", have, want)
	}
}

func TestParseDirectives(t *testing.T) {
	for _, tc := range []struct {
		in     string
		header bool
		want   string // directive|problem, ...
	}{
		{"NoIndex, NOFOLLOW", false, "noindex|, nofollow|"},
		{"max-snippet:20, max-image-preview:large, max-video-preview:-1", false, "max-snippet:20|, max-image-preview:large|, max-video-preview:-1|"},
		{"max-snippet: lots, max-image-preview:huge", false, "max-snippet:lots|needs a number of at least -1, max-image-preview:huge|needs none, standard or large"},
		{"noindex:yes, nosnipet", false, "noindex:yes|takes no value, nosnipet|unknown directive"},
		{"googlebot: noindex, nofollow", true, "googlebot: noindex|, googlebot: nofollow|"},
		{"noarchive, otherbot: noindex", true, "noarchive|, otherbot: noindex|"},
		{"googlebot: noindex", false, "googlebot:noindex|unknown directive"}, // no crawler names in a meta
		{"unavailable_after: Fri, 25 Jun 2027 15:00:00 GMT", true, "unavailable_after:Fri, 25 Jun 2027 15:00:00 GMT|"},
		{"googlebot: unavailable_after: 2027-06-25", true, "googlebot: unavailable_after:2027-06-25|"},
		{"unavailable_after: next tuesday", true, "unavailable_after:next tuesday|needs a date (RFC 822, RFC 850 or ISO 8601)"},
		{"unavailable_after: Friday, 25-Jun-2027 15:00:00 GMT, noarchive", true, "unavailable_after:Friday, 25-Jun-2027 15:00:00 GMT|, noarchive|"},
	} {
		var got []string
		for _, d := range parseDirectives(tc.in, "*", tc.header, "") {
			got = append(got, d.String()+"|"+d.problem)
		}
		if s := strings.Join(got, ", "); s != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.in, s, tc.want)
		}
	}
}

func TestDirectivesBlock(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d := &directives{}
	for _, src := range []struct {
		s, agent string
	}{{"none", "*"}, {"noindex", "otherbot"}, {"noindex", "googlebot"}, {"unavailable_after: 2025-12-31", "bingbot"}, {"unavailable_after: 2026-01-02", "*"}} {
		d.list = append(d.list, parseDirectives(src.s, src.agent, false, src.agent)...)
	}
	noindex, expired := d.blocks(at)
	if len(noindex) != 2 || noindex[0].agent != "*" || noindex[1].agent != "googlebot" || len(expired) != 1 || expired[0].agent != "bingbot" {
		t.Errorf("noindex %v, expired %v", noindex, expired)
	}
	if _, expired := d.blocks(time.Time{}); len(expired) != 0 {
		t.Errorf("unknown fetch time: expired %v", expired)
	}
}

func TestJSONLDProblems(t *testing.T) {
	for in, want := range map[string]string{
		`{"@context":"https://schema.org","@type":"Article"}`:                                                                 "",
		`[{"@context":"https://schema.org","@type":"Article"},{"@context":"https://schema.org","@type":["Thing","Product"]}]`: "",
		`{"@context":"https://schema.org","@graph":[{"@type":"WebSite"},{"@type":"Organization"}]}`:                           "",
		`{"@context":"https://schema.org","@graph":[{"@type":"WebSite"},{"name":"no type"}]}`:                                 "missing_type",
		`{"@type":"Article"}`:                                     "missing_context",
		`{"@context":"https://schema.org"}`:                       "missing_type",
		`{"@context":"https://schema.org","@type":""}`:            "missing_type",
		`{"@context": "https://schema.org", "@type": "Article",}`: "invalid_json",
		``:       "invalid_json",
		`[]`:     "missing_type",
		`"text"`: "missing_type", // not an item at all
	} {
		if got := strings.Join(jsonLDProblems(in), ","); got != want {
			t.Errorf("%s: %q, want %q", in, got, want)
		}
	}
}

// TestAdviceTable: every check has general advice and nothing but checks
// have advice; each sentence is short enough to read at a glance.
func TestAdviceTable(t *testing.T) {
	ids := map[string]bool{}
	for _, c := range Catalogue() {
		ids[c.ID] = true
		if advice[c.ID][""] == "" {
			t.Errorf("%s has no general advice", c.ID)
		}
	}
	for id, byCode := range advice {
		if !ids[id] {
			t.Errorf("advice for %s, which is no check", id)
		}
		for code, a := range byCode {
			if n := len([]rune(a)); n > 200 || !strings.HasSuffix(a, ".") {
				t.Errorf("%s/%s: advice of %d characters, or not a sentence: %q", id, code, n, a)
			}
		}
	}
	if got := adviceFor("title", []string{"too_many", "too_long", "too_many"}); got != advice["title"]["too_many"]+" "+advice["title"]["too_long"] {
		t.Errorf("advice for two codes = %q", got)
	}
	if got := adviceFor("title", []string{"no_such_code"}); got != advice["title"][""] {
		t.Errorf("advice for an unknown code = %q", got)
	}
}

// TestFollowUps: the canonical URL is probed only when it is one usable,
// absolute URL on the page's site other than the page; alternates are the
// first three distinct usable ones other than the page, markup first.
func TestFollowUps(t *testing.T) {
	link := func(attrs ...string) *webpage.Node {
		n := &webpage.Node{Type: webpage.ElementNode, Tag: "link"}
		for i := 0; i+1 < len(attrs); i += 2 {
			n.Attrs = append(n.Attrs, webpage.Attr{Key: attrs[i], Val: attrs[i+1]})
		}
		return n
	}
	canon := func(href string) *webpage.Node { return link("rel", "canonical", "href", href) }
	alt := func(lang, href string) *webpage.Node { return link("rel", "alternate", "hreflang", lang, "href", href) }
	const page = "https://www.f.example/a/page"
	for _, tc := range []struct {
		name       string
		links      []*webpage.Node
		header     string
		canonical  string
		alternates string
	}{
		{"no links", nil, "", "", ""},
		{"self", []*webpage.Node{canon(page + "#top")}, "", "", ""},
		{"same site", []*webpage.Node{canon("https://f.example/a/")}, "", "https://f.example/a/", ""},
		{"relative", []*webpage.Node{canon("/a/")}, "", "", ""},
		{"other site", []*webpage.Node{canon("https://other.example/a/")}, "", "", ""},
		{"markup and header agree", []*webpage.Node{canon("https://f.example/b")}, "<https://f.example/b>; rel=canonical", "https://f.example/b", ""},
		{"markup and header disagree", []*webpage.Node{canon("https://f.example/b")}, "<https://f.example/c>; rel=canonical", "", ""},
		{"alternates", []*webpage.Node{
			alt("en", page), alt("fr", "https://f.example/fr"), alt("FR", "https://f.example/fr#x"), alt("xx", "https://f.example/xx"),
			alt("de", "/de"), alt("es", "https://f.example/es"), alt("x-default", "https://f.example/"),
		}, `<https://f.example/it>; rel="alternate"; hreflang="it"`, "", "https://f.example/fr https://f.example/es https://f.example/"},
		{"header alternates", nil, `<https://f.example/it>; rel="alternate"; hreflang="it", <https://f.example/pt>; rel="alternate"; hreflang="pt"`, "", "https://f.example/it https://f.example/pt"},
	} {
		f := &webpage.Fetched{Page: webpage.Response{URL: page, Header: map[string][]string{}},
			Document: &webpage.Node{Type: webpage.DocumentNode, Children: []*webpage.Node{{Type: webpage.ElementNode, Tag: "html", Children: []*webpage.Node{{Type: webpage.ElementNode, Tag: "head", Children: tc.links}}}}}}
		if tc.header != "" {
			f.Page.Header["Link"] = []string{tc.header}
		}
		got := FollowUps(f)
		if got.Canonical != tc.canonical || strings.Join(got.Alternates, " ") != tc.alternates {
			t.Errorf("%s: canonical %q alternates %q, want %q %q", tc.name, got.Canonical, got.Alternates, tc.canonical, tc.alternates)
		}
	}
}
