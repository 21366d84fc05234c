package crawlsite

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/pinsight/pinsight/domain/crawl"
)

// entry is one planted or control URL: how it answers.
type entry struct {
	status      int    // 0 for 200
	location    string // a redirect's target path
	absLocation bool   // write Location as an absolute URL
	reset       bool   // close the connection without answering
	// title and desc are generated from the path when both are "";
	// otherwise "" is none.
	title, desc string
	canonical   string // the canonical href, "" for none
	// absCanonical writes the canonical as the page's own URL in another
	// spelling: upper-case scheme, absolute, with a fragment.
	absCanonical  bool
	noindexMeta   bool // <meta name="robots" content="noindex, follow">
	noindexHeader bool // X-Robots-Tag: noindex
	alternates    []alternate
	lang          string   // <html lang>; "en" when ""
	links         []string // a[href] besides the start page's
	next, prev    string   // rel=next and rel=prev hrefs
	text          string   // the main text; generated from the path when ""
	// bare pages have nothing in <body> but their main text: no heading,
	// no navigation (the duplicate-content pages).
	bare bool
}

// alternate is a hreflang link.
type alternate struct{ lang, href string }

// add plants a URL that a crawl keeps a record of.
func (s *Site) add(path string, e *entry) {
	s.route(path, e)
	s.stats.Records++
	switch {
	case e.reset || e.status >= 400:
		s.stats.Errors++
	case e.status >= 300:
		s.stats.Redirected++
	default:
		s.stats.Landed++
	}
}

// route serves e at path without a record of its own (a later redirect
// hop, a URL robots.txt disallows).
func (s *Site) route(path string, e *entry) {
	if _, dup := s.routes[path]; dup {
		panic("crawlsite: " + path + " planted twice")
	}
	s.routes[path] = e
}

// block records a URL robots.txt disallows (served all the same, for
// clients that ignore robots.txt).
func (s *Site) block(path string) {
	if !strings.Contains(path, "?") && !strings.HasSuffix(path, "/print") {
		s.route(path, &entry{})
	}
	s.stats.Records++
	s.stats.Blocked++
}

func (s *Site) expect(t crawl.IssueType, path string) {
	s.planted = append(s.planted, Planted{Type: t, Path: path})
}

func (s *Site) linkHome(paths ...string) { s.homeLinks = append(s.homeLinks, paths...) }

func (s *Site) listSitemap(paths ...string) { s.sitemap = append(s.sitemap, paths...) }

// fillerPath is the path of the filler page n.
func fillerPath(n int) string { return fmt.Sprintf("/p/%d", n) }

// plant plants every issue, each type a different number of times, and
// the controls beside them: URLs like the planted ones that must not be
// issues.
func (s *Site) plant() {
	s.plantLinks()
	s.plantSitemapURLs()
	s.plantDuplicates()
	s.plantPages()
	s.plantRobots()
	order := map[crawl.IssueType]int{}
	for i, d := range crawl.Catalogue {
		order[d.Type] = i
	}
	slices.SortFunc(s.planted, func(a, b Planted) int {
		return cmp.Or(cmp.Compare(order[a.Type], order[b.Type]), strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line))
	})
}

// plantLinks plants 6 broken links, 4 redirect chains, 3 redirect loops
// and 13 links blocked by robots.txt.
func (s *Site) plantLinks() {
	broken := []struct {
		path   string
		status int
	}{{"/missing/1", 404}, {"/missing/2", 404}, {"/missing/3", 404}, {"/gone", 410}, {"/error", 500}, {"/reset", 0}}
	for _, b := range broken {
		s.add(b.path, &entry{status: b.status, reset: b.status == 0})
		s.expect(crawl.BrokenLink, b.path)
	}
	s.linkHome("/missing/1", "/gone", "/error", "/reset")
	for n := range 5 {
		s.fillerLinks[n] = append(s.fillerLinks[n], "/missing/2")
	}
	s.fillerLinks[5] = append(s.fillerLinks[5], "/error")
	// /missing/3 is linked from the first section page, relative and with a fragment.

	// Chains of 2, 3, 2 and 4 redirects, relative and absolute Locations,
	// each ending on a filler page.
	codes := []int{301, 302, 307, 308}
	for i, hops := range []int{2, 3, 2, 4} {
		start := fmt.Sprintf("/chain/%d", i+1)
		hop := func(k int) string {
			if k == 0 {
				return start
			}
			return fmt.Sprintf("%s/%d", start, k+1)
		}
		for k := range hops {
			e := &entry{status: codes[(i+k)%len(codes)], location: hop(k + 1), absLocation: k%2 == 1}
			if k == hops-1 {
				e.location = fillerPath(i)
			}
			if k == 0 {
				s.add(hop(k), e)
			} else {
				s.route(hop(k), e)
			}
		}
		s.linkHome(start)
		s.expect(crawl.RedirectChain, start)
	}
	// Controls: a single redirect is no chain.
	s.add("/moved/1", &entry{status: 301, location: fillerPath(4)})
	s.add("/moved/2", &entry{status: 302, location: fillerPath(5), absLocation: true})
	s.linkHome("/moved/1", "/moved/2")

	// Loops: two URLs redirecting to each other, a URL redirecting to
	// itself, and redirects that never end (/endless/N to /endless/N+1,
	// served by serve).
	s.add("/loop/1", &entry{status: 302, location: "/loop/1/b"})
	s.route("/loop/1/b", &entry{status: 302, location: "/loop/1", absLocation: true})
	s.add("/loop/2", &entry{status: 301, location: "/loop/2"})
	s.add("/endless", &entry{status: 302, location: "/endless/1"})
	s.linkHome("/loop/1", "/loop/2", "/endless")
	for _, p := range []string{"/loop/1", "/loop/2", "/endless"} {
		s.expect(crawl.RedirectLoop, p)
	}

	// Blocked: 5 under Disallow: /private/, 4 matching /*/print$ and 4
	// matching /*?print=.
	for i := range 5 {
		p := fmt.Sprintf("/private/%d", i)
		s.block(p)
		s.linkHome(p)
		s.expect(crawl.BlockedByRobots, p)
	}
	for n := 11; n <= 18; n++ {
		p := fillerPath(n) + "/print"
		if n >= 15 {
			p = fillerPath(n) + "?print=1"
		}
		s.block(p)
		s.fillerLinks[n] = append(s.fillerLinks[n], p)
		s.expect(crawl.BlockedByRobots, p)
	}
	// Controls: Allow: /private/open wins over Disallow: /private/; a
	// disallowed URL only a sitemap lists is no blocked link.
	s.add("/private/open", &entry{})
	s.linkHome("/private/open")
	s.block("/private/listed")
	s.listSitemap("/private/listed")
}

// plantSitemapURLs plants 5 orphan pages, 2 noindex pages, 1
// non-canonical URL and 10 failing URLs in /sitemap.xml.
func (s *Site) plantSitemapURLs() {
	for i := 1; i <= 5; i++ {
		p := fmt.Sprintf("/orphan/%d", i)
		s.add(p, &entry{})
		s.listSitemap(p)
		s.expect(crawl.OrphanPage, p)
	}
	s.add("/noindex/meta", &entry{noindexMeta: true})
	s.add("/noindex/header", &entry{noindexHeader: true})
	s.add("/alias/1", &entry{canonical: fillerPath(6)})
	for _, p := range []string{"/noindex/meta", "/noindex/header", "/alias/1"} {
		s.linkHome(p)
		s.listSitemap(p)
	}
	s.expect(crawl.NoindexInSitemap, "/noindex/meta")
	s.expect(crawl.NoindexInSitemap, "/noindex/header")
	s.expect(crawl.NonCanonicalInSitemap, "/alias/1")
	for i, status := range []int{404, 301, 410, 302, 500, 307, 404, 308, 410, 404} {
		p := fmt.Sprintf("/sitemap-error/%d", i+1)
		e := &entry{status: status}
		if status < 400 {
			e.location = fillerPath(7 + i%3)
		}
		s.add(p, e)
		s.listSitemap(p)
		s.expect(crawl.SitemapURLError, p)
	}
}

// plantDuplicates plants 9 pages with duplicate titles (groups of 2, 3
// and 4), 11 with duplicate descriptions (2, 4 and 5), 2 translations
// sharing a title without hreflang (and 2 with it) and 8 with duplicate
// content (two groups of 3 with the same text, and 2 pages with nearly the
// same text).
func (s *Site) plantDuplicates() {
	spell := func(v string, i int) string { // the same text as textKey compares it
		switch i % 3 {
		case 1:
			return strings.ToUpper(v)
		case 2:
			return "  " + strings.ReplaceAll(strings.ToLower(v), " ", "   ") + " "
		}
		return v
	}
	groups := "ABC"
	titleOf := func(g int) string { return "Shared title " + groups[g:g+1] }
	descOf := func(g int) string { return "A description shared by several pages, group " + groups[g:g+1] + "." }
	for g, size := range []int{2, 3, 4} {
		for i := range size {
			p := fmt.Sprintf("/dup-title/%c%d", groups[g], i+1)
			s.add(p, &entry{title: spell(titleOf(g), i)})
			s.linkHome(p)
			s.expect(crawl.DuplicateTitle, p)
		}
	}
	for g, size := range []int{2, 4, 5} {
		for i := range size {
			p := fmt.Sprintf("/dup-desc/%c%d", groups[g], i+1)
			s.add(p, &entry{desc: spell(descOf(g), i)})
			s.linkHome(p)
			s.expect(crawl.DuplicateDescription, p)
		}
	}
	textOf := func(g int) string { return text("duplicate-content-"+groups[g:g+1], 150) }
	for g := range 2 {
		for i := range 3 {
			p := fmt.Sprintf("/dup-content/%c%d", groups[g], i+1)
			s.add(p, &entry{text: textOf(g), bare: true})
			s.linkHome(p)
			s.expect(crawl.DuplicateContent, p)
		}
	}
	// A page translated into 15 of India's languages with the English
	// title left, no hreflang between them: translations, not duplicates.
	// Control: two with hreflang both ways (neither issue).
	for _, lang := range strings.Fields("en hi bn te mr ta ur gu kn ml or pa as ne sa sd") {
		path := "/translated/" + lang
		s.add(path, &entry{title: "Opening hours of the counter", lang: lang})
		s.linkHome(path)
		s.expect(crawl.MissingHreflangForTranslation, path)
	}
	linked := []alternate{{"en", "/translated/ok/en"}, {"fr", "/translated/ok/fr"}}
	for _, a := range linked {
		s.add(a.href, &entry{title: "Postal holidays", lang: a.lang, alternates: linked})
		s.linkHome(a.href)
	}
	a, b := nearPair()
	for i, t := range []string{a, b} {
		p := fmt.Sprintf("/near/%d", i+1)
		s.add(p, &entry{text: t, bare: true})
		s.linkHome(p)
		s.expect(crawl.DuplicateContent, p)
	}
	// Controls: pages that are not indexable share the first groups'
	// title, description and text without being duplicates.
	s.add("/control/noindex", &entry{title: titleOf(0), desc: descOf(0), text: textOf(0), bare: true, noindexMeta: true})
	s.add("/control/canonical", &entry{title: titleOf(1), desc: descOf(1), text: textOf(1), bare: true, canonical: fillerPath(10)})
	s.linkHome("/control/noindex", "/control/canonical")
}

// plantPages plants 14 deep pages, 15 canonicals pointing at redirects or
// errors, 12 pages whose hreflang alternates do not link back, and a
// paginated list (rel=next/prev) three clicks deep.
func (s *Site) plantPages() {
	// /deep/1 -> /deep/2 -> /deep/3 -> /deep/4/0..12, /deep/4/0 -> /deep/5.
	s.add("/deep/1", &entry{links: []string{"/deep/2"}})
	s.add("/deep/2", &entry{links: []string{"/deep/3"}})
	var fourth []string
	for j := range 13 {
		fourth = append(fourth, fmt.Sprintf("/deep/4/%d", j))
	}
	s.add("/deep/3", &entry{links: fourth})
	for j, p := range fourth {
		e := &entry{}
		if j == 0 {
			e.links = []string{"/deep/5"}
		}
		s.add(p, e)
		s.expect(crawl.DeepPage, p)
	}
	s.add("/deep/5", &entry{})
	s.expect(crawl.DeepPage, "/deep/5")
	s.stats.MaxDepth = 5
	s.linkHome("/deep/1")
	s.listSitemap("/deep/1", "/deep/2", "/deep/3")
	s.listSitemap(fourth...)
	s.listSitemap("/deep/5")

	for n := 1; n <= 3; n++ {
		e := &entry{title: fmt.Sprintf("List page %d", n)}
		if n < 3 {
			e.next = fmt.Sprintf("/list?page=%d", n+1)
		}
		if n > 1 {
			e.prev = fmt.Sprintf("/list?page=%d", n-1)
		}
		s.add(fmt.Sprintf("/list?page=%d", n), e)
	}
	s.linkHome("/list?page=1")

	// Canonical targets: single redirects, chains, loops, errors and two
	// URLs (/canon-target/N) that only these canonicals name.
	targets := []string{"/moved/1", "/chain/1", "/loop/2", "/missing/1", "/canon-target/1", "/error", "/reset",
		"/moved/2", "/chain/2", "/endless", "/gone", "/canon-target/2", "/sitemap-error/2", "/loop/1", "/missing/2"}
	s.add("/canon-target/1", &entry{status: 404})
	s.add("/canon-target/2", &entry{status: 410})
	for i, t := range targets {
		p := fmt.Sprintf("/canon-error/%d", i+1)
		s.add(p, &entry{canonical: t})
		s.linkHome(p)
		s.expect(crawl.CanonicalTargetError, p)
	}
	// Controls: a canonical to a page, to a URL robots.txt disallows, and
	// to the page itself written otherwise.
	s.add("/canon-ok/1", &entry{canonical: fillerPath(9)})
	s.add("/canon-ok/2", &entry{canonical: "/private/0"})
	s.add("/canon-ok/3", &entry{absCanonical: true})
	s.linkHome("/canon-ok/1", "/canon-ok/2", "/canon-ok/3")

	// Hreflang: /lang/N/en names /lang/N/fr (and /lang/N/de for odd N);
	// /lang/N/fr names /lang/N/en back only for odd N, /lang/N/de never.
	for n := 1; n <= 12; n++ {
		en, fr, de := fmt.Sprintf("/lang/%d/en", n), fmt.Sprintf("/lang/%d/fr", n), fmt.Sprintf("/lang/%d/de", n)
		enAlts := []alternate{{"en", en}, {"fr", fr}}
		var frAlts []alternate
		if n%2 == 1 {
			enAlts = append(enAlts, alternate{"de", de})
			frAlts = []alternate{{"fr", fr}, {"en", en}}
			s.add(de, &entry{})
			s.linkHome(de)
		}
		s.add(en, &entry{alternates: enAlts})
		s.add(fr, &entry{alternates: frAlts})
		s.linkHome(en, fr)
		s.expect(crawl.HreflangNoReturn, en)
	}
	// Control: three alternates naming each other.
	all := []alternate{{"en", "/lang/ok/en"}, {"fr", "/lang/ok/fr"}, {"de", "/lang/ok/de"}}
	for _, a := range all {
		s.add(a.href, &entry{alternates: all})
		s.linkHome(a.href)
	}
}
