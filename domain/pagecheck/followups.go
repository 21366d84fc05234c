package pagecheck

import (
	"github.com/pinsight/pinsight/domain/pagecheck/internal/langtag"
	"github.com/pinsight/pinsight/domain/webpage"
)

// MaxAlternateFetches is how many hreflang alternates of a page are
// fetched to look for their return link: enough to catch a one-sided
// cluster (alternates are usually generated together, so one that lacks its
// return link shows the template does), few enough to fit the deadline and
// to cost other sites little of their analysis quota.
const MaxAlternateFetches = 3

// FollowUp names what the checks want fetched besides the page, robots.txt
// and the 404 probe: each URL once, without following redirects, within the
// same deadline, through the same guard and admission as the page.
type FollowUp struct {
	// Canonical is the canonical URL to probe: the one usable, absolute
	// canonical URL the page declares (markup and Link header agreeing),
	// on the page's own site, when it is not the page's own URL; "" for
	// none. The canonical check fails when it does not answer 200.
	Canonical string
	// Alternates are the first MaxAlternateFetches distinct hreflang
	// alternates (markup first, then the Link header) with a valid language
	// code and an absolute URL, other than the page itself; the hreflang
	// check looks in each for a link back to the page.
	Alternates []string
}

// FollowUps reads what f's page declares (its markup and its headers) and
// returns what to fetch for the checks that verify those declarations.
func FollowUps(f *webpage.Fetched) FollowUp { return linkPage(f).followUps() }

// followUps is FollowUps of p.
func (p *page) followUps() FollowUp {
	var out FollowUp
	self := p.self()
	r := p.references()
	if c := p.canonical(); c != nil && allAbsolute(r.canonicals) && p.sameSite(c.Hostname()) && normURL(c) != normURL(p.url) {
		out.Canonical = c.String()
	}
	seen := map[string]bool{}
	for _, a := range r.alternates {
		if len(out.Alternates) == MaxAlternateFetches {
			break
		}
		if a.url == nil || !a.abs || !langtag.ValidHreflang(a.lang) || self[a.key()] || seen[a.key()] {
			continue
		}
		seen[a.key()] = true
		out.Alternates = append(out.Alternates, a.url.String())
	}
	return out
}

// allAbsolute reports whether every reference was written as an absolute
// http(s) URL.
func allAbsolute(rs []linkRef) bool {
	for _, r := range rs {
		if !r.abs {
			return false
		}
	}
	return true
}
