package crawlsite

import (
	"net/http"
	"slices"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
)

// StartPath is the path of the site's start URL.
const StartPath = "/"

// minFiller is the fewest filler pages a site has: planted links and
// redirects point at the first of them.
const minFiller = 20

// pagesPerSection is about how many filler pages one section page lists.
const pagesPerSection = 100

// Options configure a fixture site.
type Options struct {
	// Pages is how many URLs a complete crawl of the site keeps a record
	// of (Stats.Records): the planted URLs, the start page, the section
	// pages and as many filler pages as make up the rest. It is raised to
	// MinPages when smaller.
	Pages int
	// Latency delays every answer by this much (a request cancelled while
	// waiting gets none): for tests that need a crawl to last.
	Latency time.Duration
}

// Planted is one site-level issue a crawl of the site finds.
type Planted struct {
	Type crawl.IssueType
	Path string // the path (and query) of the issue's URL; /robots.txt for robots_txt_invalid
	Line int    // the robots.txt line of robots_txt_invalid, 0 otherwise
}

// Stats are what a complete crawl of the site records.
type Stats struct {
	Records    int // Page records: every URL requested or skipped for robots.txt
	Blocked    int // records robots.txt disallows (not requested)
	Landed     int // records answering 2xx without a redirect: HTML pages
	Redirected int // records answering a redirect (chains, loops, single hops)
	Errors     int // records answering 4xx or 5xx, or nothing (crawl.Page.Broken)
	// SitemapURLs is how many distinct on-site URLs the sitemaps list.
	SitemapURLs int
	MaxDepth    int // the deepest landed page's depth
}

// Site is a generated fixture website; it is an http.Handler, safe for
// concurrent use.
type Site struct {
	opts    Options
	routes  map[string]*entry // the planted and control URLs, by path and query
	planted []Planted
	stats   Stats
	// homeLinks are the hrefs the start page links to besides the
	// sections; fillerLinks the extra hrefs of some filler pages.
	homeLinks   []string
	fillerLinks map[int][]string
	sitemap     []string // the paths /sitemap.xml lists
	sections    int
	filler      int
	perSection  int
}

// New builds a site of o.Pages records.
func New(o Options) *Site {
	s := &Site{opts: o, routes: map[string]*entry{}, fillerLinks: map[int][]string{}}
	s.plant()
	fixed := s.stats.Records + 1 // the start page
	o.Pages = max(o.Pages, MinPages())
	s.opts.Pages = o.Pages
	s.sections = (o.Pages + pagesPerSection - 1) / pagesPerSection
	s.filler = o.Pages - fixed - s.sections
	s.perSection = (s.filler + s.sections - 1) / s.sections
	s.stats.Records += 1 + s.sections + s.filler
	s.stats.Landed += 1 + s.sections + s.filler
	s.stats.SitemapURLs = len(s.sitemap) + 1 + s.sections + s.filler // the start page is in the sections' sitemap
	return s
}

// MinPages is the smallest site: the planted URLs, the start page, one
// section page per pagesPerSection records and minFiller filler pages.
func MinPages() int {
	s := &Site{routes: map[string]*entry{}, fillerLinks: map[int][]string{}}
	s.plant()
	n := s.stats.Records + 1 + minFiller
	for n-s.stats.Records-1-(n+pagesPerSection-1)/pagesPerSection < minFiller {
		n++
	}
	return n
}

// Expected is how many issues of each type (by its API name) a crawl of
// the site finds: every type of crawl.Catalogue, each a different number
// of times.
func (s *Site) Expected() map[string]int {
	out := map[string]int{}
	for _, p := range s.planted {
		out[string(p.Type)]++
	}
	return out
}

// Issues are the issues a crawl of the site finds, in catalogue order,
// then path, then line.
func (s *Site) Issues() []Planted { return slices.Clone(s.planted) }

// Stats are what a complete crawl of the site records.
func (s *Site) Stats() Stats { return s.stats }

// Pages is the number of records a complete crawl keeps (Options.Pages
// after raising it to MinPages).
func (s *Site) Pages() int { return s.opts.Pages }

// AIAccess says, for each token of crawl.AIAgents, whether the site's
// robots.txt lets that crawler fetch the start URL.
func (s *Site) AIAccess() map[string]bool {
	out := map[string]bool{}
	for _, a := range crawl.AIAgents {
		out[a.Token] = !slices.Contains(aiBlocked, a.Token)
	}
	return out
}

// AIBlocked are the AI crawlers (crawl.AIAgents tokens) that robots.txt
// keeps from the start URL, sorted; it lets every other one in.
func (s *Site) AIBlocked() []string { return slices.Sorted(slices.Values(aiBlocked)) }

// ServeHTTP serves the site.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if d := s.opts.Latency; d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	s.serve(w, r)
}
