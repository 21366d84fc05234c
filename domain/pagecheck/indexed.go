package pagecheck

import "github.com/pinsight/pinsight/domain/webpage"

// Indexed is a fetched page indexed once (one walk of its document) for
// its follow-ups, its audit and its facts: what FollowUps, Analyse and
// PageFacts give, each of which indexes the page again. A site crawl
// needs all three of every page.
type Indexed struct{ p *page }

// Index indexes f. Fetch what FollowUps names into f (Canonical,
// Alternates) before Analyse: the checks read them from f then.
func Index(f *webpage.Fetched) *Indexed { return &Indexed{p: newPage(f)} }

// Site is a site's robots.txt, parsed once for the audits of its pages
// (Index parses f.Robots again for each page). Its methods may be called
// from several goroutines at once.
type Site struct {
	robots *webpage.Response
	parsed *siteRobots
}

// NewSite parses robots, the site's robots.txt response (nil when it has
// none).
func NewSite(robots *webpage.Response) *Site {
	p := &page{f: &webpage.Fetched{Robots: robots}}
	p.robots()
	return &Site{robots: robots, parsed: p.site}
}

// Index is Index of f, reading the site's parsed robots.txt when f.Robots
// is the response s was made of (the same pointer).
func (s *Site) Index(f *webpage.Fetched) *Indexed {
	x := Index(f)
	if f.Robots == s.robots {
		x.p.site = s.parsed
	}
	return x
}

// FollowUps is FollowUps of the page.
func (x *Indexed) FollowUps() FollowUp { return x.p.followUps() }

// Analyse is Analyse of the page with weights w.
func (x *Indexed) Analyse(w Weights) Analysis { return x.p.analyse(w) }

// Facts is PageFacts of the page.
func (x *Indexed) Facts() Facts { return x.p.facts() }
