package crawl_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/domain/crawl"
)

const site = "https://e.com"

// u makes site URLs of paths.
func u(paths ...string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = site + p
	}
	return out
}

// page is a landed page at path, linking to links.
func page(path string, depth int, links ...string) crawl.Page {
	return crawl.Page{URL: site + path, FinalURL: site + path, Status: 200, Depth: depth, Outlinks: u(links...)}
}

func words(prefix string, n int, swap map[int]string) string {
	w := make([]string, n)
	for i := range w {
		w[i] = fmt.Sprintf("%s%d", prefix, i)
		if s, ok := swap[i]; ok {
			w[i] = s
		}
	}
	return strings.Join(w, " ")
}

// fixture is a crawl with every issue type planted a known number of
// times; the comments count them.
func fixture() (crawl.Site, []crawl.Page, map[crawl.IssueType]int) {
	home := page("/", 0, "/a", "/broken1", "/down", "/old", "/loop1", "/blocked", "/moved", "/dup1", "/dup2",
		"/near1", "/near2", "/canon-bad", "/canon-404", "/self", "/en", "/fr", "/de", "/noidx", "/param?x=1", "/depth3", "/", "/a",
		"/guide", "/guide-uk", "/de/guide", "/fr/guide")
	home.InSitemap = true // the start URL is no orphan
	a := page("/a", 1, "/broken1", "/deep")
	a.Description = "Shared"
	dup1, dup2 := page("/dup1", 1), page("/dup2", 1)
	dup1.Title, dup2.Title = "Same Title", "  same   TITLE "
	dup1.Description, dup2.Description = "Shared", "shared"
	text := words("word", 300, nil)
	dup1.Fingerprint, dup2.Fingerprint = crawl.Fingerprint(text), crawl.Fingerprint(text)
	near1, near2 := page("/near1", 1), page("/near2", 1)
	near1.Fingerprint, near2.Fingerprint = crawl.Fingerprint(words("term", 300, map[int]string{0: "other"})), crawl.Fingerprint(words("term", 300, map[int]string{1: "other"}))
	noidx := page("/noidx", 1)
	noidx.Title, noidx.Noindex, noidx.InSitemap = "Same Title", true, true
	param := page("/param?x=1", 1)
	param.Canonical, param.InSitemap = site+"/a", true
	moved := crawl.Page{URL: site + "/moved", FinalURL: site + "/b", Status: 200, Depth: 1, Redirects: u("/moved"), Title: "Same Title", InSitemap: true}
	b := page("/b", 2)
	b.InSitemap = true // linked only through /moved: no orphan
	old := crawl.Page{URL: site + "/old", FinalURL: site + "/a", Status: 200, Depth: 1, Redirects: u("/old", "/older")}
	loop := crawl.Page{URL: site + "/loop1", FinalURL: site + "/loop1", Status: 301, Depth: 1, Redirects: u("/loop1", "/loop2"), RedirectLoop: true}
	canonBad := page("/canon-bad", 1)
	canonBad.Canonical = site + "/moved"
	canon404 := page("/canon-404", 1)
	canon404.Canonical = site + "/broken1"
	self := page("/self", 1)
	self.Canonical = site + "/self"
	en, fr, de := page("/en", 1), page("/fr", 1), page("/de", 1)
	en.Hreflang, fr.Hreflang = u("/en", "/fr", "/de"), u("/fr", "/en")
	// One title in three languages: /fr/guide and /guide linked by
	// hreflang (translations), /de/guide linked to none, /guide-uk in the
	// language of /guide.
	guide, guideUK, guideDE, guideFR := page("/guide", 1), page("/guide-uk", 1), page("/de/guide", 1), page("/fr/guide", 1)
	guide.Title, guideUK.Title, guideDE.Title, guideFR.Title = "Guide", "Guide", "Guide", "Guide"
	guide.Lang, guideUK.Lang, guideDE.Lang, guideFR.Lang = "en", "en-GB", "de", "fr"
	guide.Hreflang, guideFR.Hreflang = u("/fr/guide"), u("/guide")
	orphan := page("/orphan", crawl.NoDepth)
	orphan.InSitemap = true
	gone := crawl.Page{URL: site + "/gone404", FinalURL: site + "/gone404", Status: 404, Depth: crawl.NoDepth, InSitemap: true}
	pages := []crawl.Page{
		home, a, dup1, dup2, near1, near2, noidx, param, moved, b, old, loop, canonBad, canon404, self, en, fr, de, orphan, gone,
		guide, guideUK, guideDE, guideFR,
		{URL: site + "/broken1", FinalURL: site + "/broken1", Status: 404, Depth: 1},
		{URL: site + "/down", FinalURL: site + "/down", Failure: "timeout", Depth: 1},
		{URL: site + "/blocked", Depth: 1, BlockedByRobots: true},
		{URL: site + "/blocked2", Depth: crawl.NoDepth, BlockedByRobots: true, InSitemap: true}, // not linked
		page("/deep", 4),
		page("/depth3", 3),
	}
	s := crawl.Site{StartURL: site + "/", RobotsURL: site + "/robots.txt",
		RobotsTxt: []byte("Disallow: /early\nUser-agent: *\nDisallow: /blocked\nNoindex-please: /x\n")}
	want := map[crawl.IssueType]int{
		crawl.BrokenLink: 2, crawl.RedirectChain: 1, crawl.RedirectLoop: 1, crawl.OrphanPage: 1,
		crawl.DuplicateTitle: 4, crawl.DuplicateDescription: 3, crawl.DuplicateContent: 4,
		crawl.NoindexInSitemap: 1, crawl.NonCanonicalInSitemap: 1, crawl.SitemapURLError: 2,
		crawl.BlockedByRobots: 1, crawl.DeepPage: 1, crawl.CanonicalTargetError: 2, crawl.HreflangNoReturn: 1,
		crawl.RobotsTxtInvalid: 2, crawl.MissingHreflangForTranslation: 4,
	}
	return s, pages, want
}

func detect(s crawl.Site, pages []crawl.Page) []crawl.Issue {
	d := crawl.NewDetector(s)
	for _, p := range pages {
		d.Add(p)
	}
	return d.Finish()
}

func TestDetectCounts(t *testing.T) {
	s, pages, want := fixture()
	issues := detect(s, pages)
	got := map[crawl.IssueType]int{}
	for _, c := range crawl.Counts(issues) {
		got[c.Type] = c.Count
	}
	if !reflect.DeepEqual(got, want) {
		for _, i := range issues {
			t.Logf("%s %s %v", i.Type, i.URL, i.Related)
		}
		t.Fatalf("counts = %v\nwant     %v", got, want)
	}
	if len(want) != len(crawl.Catalogue) {
		t.Errorf("the fixture plants %d of the %d issue types", len(want), len(crawl.Catalogue))
	}
}

func TestDetectIssues(t *testing.T) {
	s, pages, _ := fixture()
	issues := detect(s, pages)
	find := func(typ crawl.IssueType, url string) crawl.Issue {
		t.Helper()
		for _, i := range issues {
			if i.Type == typ && i.URL == url {
				return i
			}
		}
		t.Fatalf("no %s issue for %s", typ, url)
		return crawl.Issue{}
	}
	tests := []struct {
		typ     crawl.IssueType
		path    string
		related []string
		detail  string
	}{
		{crawl.BrokenLink, "/broken1", u("/", "/a"), "answers 404; linked from 2 pages"},
		{crawl.BrokenLink, "/down", u("/"), "could not be fetched (timeout); linked from 1 page"},
		{crawl.RedirectChain, "/old", u("/old", "/older", "/a"), "through 2 redirects"},
		{crawl.RedirectLoop, "/loop1", u("/loop1", "/loop2", "/loop1"), "never reach a page"},
		{crawl.OrphanPage, "/orphan", nil, "no crawled page links to it"},
		{crawl.DuplicateTitle, "/dup1", u("/dup2"), "1 other indexable page"},
		{crawl.DuplicateDescription, "/a", u("/dup1", "/dup2"), "2 other indexable pages"},
		{crawl.DuplicateContent, "/dup1", u("/dup2"), "is the same as that of"},
		{crawl.DuplicateContent, "/near1", u("/near2"), "nearly the same"},
		{crawl.NoindexInSitemap, "/noidx", nil, "noindex"},
		{crawl.NonCanonicalInSitemap, "/param?x=1", u("/a"), "names https://e.com/a as its canonical"},
		{crawl.SitemapURLError, "/gone404", nil, "answers 404"},
		{crawl.SitemapURLError, "/moved", u("/moved", "/b"), "redirects to https://e.com/b"},
		{crawl.BlockedByRobots, "/blocked", u("/"), "linked from 1 page"},
		{crawl.DeepPage, "/deep", nil, "4 clicks"},
		{crawl.CanonicalTargetError, "/canon-bad", u("/moved", "/b"), "redirects to https://e.com/b"},
		{crawl.CanonicalTargetError, "/canon-404", u("/broken1"), "answers 404"},
		{crawl.HreflangNoReturn, "/en", u("/de"), "1 alternate"},
		{crawl.DuplicateTitle, "/guide", u("/guide-uk"), "1 other indexable page"},
		{crawl.MissingHreflangForTranslation, "/guide", u("/de/guide"), "1 indexable page in another language"},
		{crawl.MissingHreflangForTranslation, "/de/guide", u("/fr/guide", "/guide", "/guide-uk"), "3 indexable pages in another language"},
		{crawl.MissingHreflangForTranslation, "/fr/guide", u("/de/guide", "/guide-uk"), "2 indexable pages"},
	}
	for _, tt := range tests {
		i := find(tt.typ, site+tt.path)
		if !reflect.DeepEqual(i.Related, tt.related) && !(len(i.Related) == 0 && len(tt.related) == 0) {
			t.Errorf("%s %s related = %v, want %v", tt.typ, tt.path, i.Related, tt.related)
		}
		if i.RelatedTotal != len(tt.related) || !strings.Contains(i.Detail, tt.detail) {
			t.Errorf("%s %s: total %d, detail %q, want %q", tt.typ, tt.path, i.RelatedTotal, i.Detail, tt.detail)
		}
	}
	r := find(crawl.RobotsTxtInvalid, site+"/robots.txt")
	if r.Line != 1 || r.LineText != "Disallow: /early" || !strings.Contains(r.Detail, "No user-agent specified") {
		t.Errorf("robots issue = %+v", r)
	}
	for i := 1; i < len(issues); i++ {
		a, b := issues[i-1], issues[i]
		if a.Key() == b.Key() {
			t.Errorf("two issues with key %s", a.Key())
		}
	}
}

// TestDetectOrderIndependent: pages streamed in any order give the same
// issues in the same order.
func TestDetectOrderIndependent(t *testing.T) {
	s, pages, _ := fixture()
	want := detect(s, pages)
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		shuffled := append([]crawl.Page(nil), pages...)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if got := detect(s, shuffled); !reflect.DeepEqual(got, want) {
			t.Fatalf("order changed the issues")
		}
	}
	// A record sent twice counts once.
	if got := detect(s, append(pages, pages...)); !reflect.DeepEqual(got, want) {
		t.Fatalf("a repeated record changed the issues")
	}
}

func TestDetectRelatedBounded(t *testing.T) {
	pages := []crawl.Page{{URL: site + "/gone", FinalURL: site + "/gone", Status: 410, Depth: 1}}
	for i := range 120 {
		pages = append(pages, page(fmt.Sprintf("/p%03d", i), 1, "/gone"))
	}
	issues := detect(crawl.Site{StartURL: site + "/"}, pages)
	if len(issues) != 1 || issues[0].RelatedTotal != 120 || len(issues[0].Related) != crawl.MaxRelated || issues[0].Related[0] != site+"/p000" {
		t.Fatalf("issues = %+v", issues)
	}
}

func TestDetectNothing(t *testing.T) {
	if issues := detect(crawl.Site{StartURL: site + "/", RobotsURL: site + "/robots.txt", RobotsTxt: []byte("User-agent: *\nAllow: /\n")},
		[]crawl.Page{page("/", 0, "/a"), page("/a", 1, "/")}); len(issues) != 0 {
		t.Errorf("a clean site: %+v", issues)
	}
	if issues := crawl.NewDetector(crawl.Site{}).Finish(); len(issues) != 0 {
		t.Errorf("no pages: %+v", issues)
	}
}

func ExampleDetector() {
	d := crawl.NewDetector(crawl.Site{StartURL: "https://example.com/"})
	d.Add(crawl.Page{URL: "https://example.com/", FinalURL: "https://example.com/", Status: 200, Depth: 0,
		Outlinks: []string{"https://example.com/old-page"}})
	d.Add(crawl.Page{URL: "https://example.com/old-page", FinalURL: "https://example.com/old-page", Status: 404, Depth: 1})
	for _, i := range d.Finish() {
		fmt.Println(i.Type, i.URL, i.Severity())
		fmt.Println(i.Detail, i.Related)
	}
	// Output:
	// broken_link https://example.com/old-page high
	// The URL answers 404; linked from 1 page. [https://example.com/]
}
