package crawl

import (
	"fmt"
	"strconv"
)

func itoa(n int) string { return strconv.Itoa(n) }

// linkIssues finds broken_link, redirect_chain, redirect_loop and
// blocked_by_robots.
func (d *Detector) linkIssues() []Issue {
	var out []Issue
	for id, r := range d.recs {
		if !r.added {
			continue
		}
		u := d.urls[id]
		links := d.inlinks[id]
		switch {
		case r.broken && len(links) > 0:
			rel, n := d.urlsOf(links)
			what := "answers " + itoa(r.status)
			if r.status == 0 {
				what = "could not be fetched"
				if r.failure != "" {
					what += " (" + r.failure + ")"
				}
			}
			out = append(out, Issue{Type: BrokenLink, URL: u, Related: rel, RelatedTotal: n,
				Detail: fmt.Sprintf("The URL %s; linked from %s.", what, plural(n, "page"))})
		case r.blocked && len(links) > 0:
			rel, n := d.urlsOf(links)
			out = append(out, Issue{Type: BlockedByRobots, URL: u, Related: rel, RelatedTotal: n,
				Detail: fmt.Sprintf("robots.txt keeps the crawler from the URL; linked from %s.", plural(n, "page"))})
		}
		switch {
		case r.loop:
			rel, n := d.hops(r)
			out = append(out, Issue{Type: RedirectLoop, URL: u, Related: rel, RelatedTotal: n,
				Detail: fmt.Sprintf("The URL's redirects never reach a page: after %s they come back to a URL of the chain or pass the limit of %d.", plural(len(r.redirects), "redirect"), MaxRedirects)})
		case len(r.redirects) >= 2:
			rel, n := d.hops(r)
			out = append(out, Issue{Type: RedirectChain, URL: u, Related: rel, RelatedTotal: n,
				Detail: fmt.Sprintf("The URL reaches %s through %s.", d.urls[r.final], plural(len(r.redirects), "redirect"))})
		}
	}
	return out
}

// pageIssues finds orphan_page, deep_page, canonical_target_error and
// hreflang_no_return.
func (d *Detector) pageIssues() []Issue {
	start, hasStart := d.ids[d.site.StartURL]
	viaRedirect := d.redirectLinked()
	var out []Issue
	for id, r := range d.recs {
		if !r.added || !r.landed {
			continue
		}
		u := d.urls[id]
		if r.inSitemap && !(hasStart && int32(id) == start) && len(d.inlinks[id]) == 0 && !viaRedirect[int32(id)] {
			out = append(out, Issue{Type: OrphanPage, URL: u,
				Detail: "A sitemap lists the page, but no crawled page links to it."})
		}
		if r.depth > MaxClickDepth {
			out = append(out, Issue{Type: DeepPage, URL: u,
				Detail: fmt.Sprintf("The page is %s from the start URL (more than %d).", plural(int(r.depth), "click"), MaxClickDepth)})
		}
		if is, ok := d.canonicalTarget(int32(id), r); ok {
			out = append(out, is)
		}
		if is, ok := d.hreflangReturn(int32(id), r); ok {
			out = append(out, is)
		}
		for _, is := range r.rendered {
			out = append(out, Issue{Type: is.Type, URL: u, Detail: is.Detail})
		}
	}
	return out
}

// redirectLinked are the URLs that a crawled page links to through a URL
// redirecting to them.
func (d *Detector) redirectLinked() map[int32]bool {
	m := map[int32]bool{}
	for from, r := range d.recs {
		if r.added && r.redirected && len(d.inlinks[from]) > 0 {
			m[r.final] = true
		}
	}
	return m
}

// canonicalTarget finds a canonical_target_error of the page id: its
// canonical names another URL the crawl fetched, which redirects or does
// not answer 2xx.
func (d *Detector) canonicalTarget(id int32, r record) (Issue, bool) {
	c := r.canonical
	if c < 0 || c == id || !d.recs[c].added {
		return Issue{}, false
	}
	t := d.recs[c]
	if t.blocked || t.landed {
		return Issue{}, false
	}
	rel, n := d.hops(t)
	if len(rel) == 0 {
		rel, n = []string{d.urls[c]}, 1
	}
	what := "answers " + itoa(t.status)
	switch {
	case t.loop:
		what = "redirects in a loop"
	case t.redirected:
		what = "redirects to " + d.urls[t.final]
	case t.status == 0:
		what = "could not be fetched"
	}
	return Issue{Type: CanonicalTargetError, URL: d.urls[id], Related: rel, RelatedTotal: n,
		Detail: fmt.Sprintf("The page's canonical URL %s %s.", d.urls[c], what)}, true
}

// hreflangReturn finds a hreflang_no_return of the page id: alternates
// the crawl reached as pages that do not name it among their own.
func (d *Detector) hreflangReturn(id int32, r record) (Issue, bool) {
	var missing []int32
	for _, a := range r.hreflang {
		alt := d.recs[a]
		if a == id || !alt.added || !alt.landed {
			continue
		}
		back := false
		for _, b := range alt.hreflang {
			back = back || b == id
		}
		if !back && !contains(missing, a) {
			missing = append(missing, a)
		}
	}
	if len(missing) == 0 {
		return Issue{}, false
	}
	rel, n := d.urlsOf(missing)
	return Issue{Type: HreflangNoReturn, URL: d.urls[id], Related: rel, RelatedTotal: n,
		Detail: fmt.Sprintf("The page names %s in hreflang that do not name it in return.", plural(n, "alternate"))}, true
}

func contains(ids []int32, id int32) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
