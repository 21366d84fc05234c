package crawl

import (
	"slices"
	"strings"

	"github.com/pinsight/pinsight/domain/robots"
)

// Site is what issue detection knows of the crawled site besides its
// pages.
type Site struct {
	StartURL string // the crawl's start URL, normalised
	// RobotsURL and RobotsTxt are the site's robots.txt and its body;
	// RobotsURL is "" when it answered no 2xx (there is then nothing to
	// validate).
	RobotsURL string
	RobotsTxt []byte
}

// Detector finds the site-level issues of a crawl from its pages' records,
// read one at a time (from storage, in any order): Add each page, then
// Finish. It keeps a compact summary of each record (its URL once, small
// integers for the URLs it names, its title and description), never a
// page's body: memory grows with the number of pages and links only. A
// Detector is not safe for concurrent use.
type Detector struct {
	site    Site
	ids     map[string]int32 // URL -> id
	urls    []string         // id -> URL
	recs    []record         // id -> record; added is false for URLs only named
	inlinks [][]int32        // id -> the added pages linking to it
	titles  map[string][]int32
	descs   map[string][]int32
	langs   map[string]int32 // primary language subtag -> the id in record.lang
	seen    map[int32]bool   // Add's scratch set of one page's link targets
}

// record is the part of a Page that detection keeps.
type record struct {
	added                                 bool
	status                                int
	failure                               string
	depth                                 int32
	final, canonical                      int32 // -1 for none
	redirects                             []int32
	loop, noindex, inSitemap, blocked     bool
	landed, indexable, broken, redirected bool
	fingerprint                           uint64
	hreflang                              []int32
	rendered                              []PageIssue // Page.Render.Issues
	lang                                  int32       // the Page.Lang primary subtag's id (langs); -1 for none
}

// NewDetector starts the detection of a crawl of site.
func NewDetector(site Site) *Detector {
	return &Detector{site: site, ids: map[string]int32{}, titles: map[string][]int32{}, descs: map[string][]int32{}, seen: map[int32]bool{},
		langs: map[string]int32{}}
}

// id interns a URL.
func (d *Detector) id(u string) int32 {
	if id, ok := d.ids[u]; ok {
		return id
	}
	id := int32(len(d.urls))
	d.ids[u] = id
	d.urls = append(d.urls, u)
	d.recs = append(d.recs, record{final: -1, canonical: -1})
	d.inlinks = append(d.inlinks, nil)
	return id
}

// optID interns u, or gives -1 for "".
func (d *Detector) optID(u string) int32 {
	if u == "" {
		return -1
	}
	return d.id(u)
}

// Add records one page. A second record of the same URL is ignored: a
// crawl fetches each URL once.
func (d *Detector) Add(p Page) {
	id := d.id(p.URL)
	if d.recs[id].added {
		return
	}
	r := record{
		added: true, status: p.Status, failure: p.Failure, depth: int32(max(p.Depth, NoDepth)),
		final: d.optID(p.FinalURL), canonical: d.optID(p.Canonical),
		loop: p.RedirectLoop, noindex: p.Noindex, inSitemap: p.InSitemap, blocked: p.BlockedByRobots,
		landed: p.Landed(), indexable: p.Indexable(), broken: p.Broken(), redirected: len(p.Redirects) > 0,
		fingerprint: p.Fingerprint, rendered: p.Render.Issues, lang: d.langID(p.Lang),
	}
	if r.final < 0 {
		r.final = id
	}
	for _, u := range p.Redirects {
		r.redirects = append(r.redirects, d.id(u))
	}
	for _, u := range p.Hreflang {
		r.hreflang = append(r.hreflang, d.id(u))
	}
	clear(d.seen)
	d.seen[id] = true // a page linking to itself does not count
	for _, u := range p.Outlinks {
		to := d.id(u)
		if !d.seen[to] {
			d.seen[to] = true
			d.inlinks[to] = append(d.inlinks[to], id)
		}
	}
	if r.indexable {
		if k := textKey(p.Title); k != "" {
			d.titles[k] = append(d.titles[k], id)
		}
		if k := textKey(p.Description); k != "" {
			d.descs[k] = append(d.descs[k], id)
		}
	}
	d.recs[id] = r
}

// langID interns the primary subtag of a language tag ("en" of "en-IN"),
// case-folded; -1 for none.
func (d *Detector) langID(tag string) int32 {
	primary, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
	if primary == "" {
		return -1
	}
	id, ok := d.langs[primary]
	if !ok {
		id = int32(len(d.langs))
		d.langs[primary] = id
	}
	return id
}

// textKey is the form in which two titles or descriptions are compared:
// case-folded, with runs of white space as one space, trimmed.
func textKey(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// Finish returns every issue found, ordered by catalogue order, then URL,
// then robots.txt line. It may be called once.
func (d *Detector) Finish() []Issue {
	var out []Issue
	out = append(out, d.linkIssues()...)
	out = append(out, d.sitemapIssues()...)
	out = append(out, d.titleDuplicates()...)
	out = append(out, d.duplicates(d.descs, DuplicateDescription, "meta description")...)
	out = append(out, d.duplicateContent()...)
	out = append(out, d.pageIssues()...)
	out = append(out, robotsIssues(d.site)...)
	slices.SortFunc(out, compareIssues)
	return out
}

// urlsOf returns the URLs of ids, sorted, at most MaxRelated, and how
// many there were.
func (d *Detector) urlsOf(ids []int32) ([]string, int) {
	out, n := d.sortedURLs(ids)
	return out[:min(n, MaxRelated)], n
}

// hops are the URLs of a redirect chain, in order, then where it ended.
func (d *Detector) hops(r record) ([]string, int) {
	out := make([]string, 0, len(r.redirects)+1)
	for _, id := range r.redirects {
		out = append(out, d.urls[id])
	}
	if last := r.final; last >= 0 && (len(r.redirects) == 0 || r.redirects[len(r.redirects)-1] != last) {
		out = append(out, d.urls[last])
	}
	return out[:min(len(out), MaxRelated)], len(out)
}

// robotsIssues validates robots.txt: one issue per rejected line.
func robotsIssues(s Site) []Issue {
	if s.RobotsURL == "" {
		return nil
	}
	var out []Issue
	for _, e := range robots.Validate(s.RobotsTxt) {
		out = append(out, Issue{Type: RobotsTxtInvalid, URL: s.RobotsURL, Line: e.Line, LineText: e.Text,
			Detail: "Line " + itoa(e.Line) + " (" + quoteLine(e.Text) + "): " + e.Message + "."})
	}
	return out
}

// quoteLine quotes a robots.txt line for a detail, cut to 100 bytes.
func quoteLine(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 100 {
		s = strings.ToValidUTF8(s[:100], "") + "..."
	}
	return `"` + s + `"`
}
