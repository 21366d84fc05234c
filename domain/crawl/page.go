package crawl

import "cmp"

// NoDepth is the depth of a URL found only in a sitemap: no chain of
// links from the start URL reaches it.
const NoDepth = -1

// MaxClickDepth is the depth past which a page is a deep_page.
const MaxClickDepth = 3

// Page is what a crawl keeps of one URL it fetched, or decided not to
// fetch because robots.txt disallows it: the compact record site-level
// issue detection reads (Detector.Add), without the page's body. Every URL
// in it is normalised (Normalize) and on the site (Scope.OnSite).
type Page struct {
	URL      string // as requested
	FinalURL string // after redirects; URL when there were none
	// Status is the final response's status (the last redirect's when
	// RedirectLoop); 0 when nothing answered (Failure says why) or when
	// the URL was not fetched (BlockedByRobots).
	Status  int
	Failure string // why nothing answered ("timeout", "connection refused"), for the detail of a broken link
	Depth   int    // clicks from the start URL (0 for it); NoDepth
	// Redirects are the URLs that answered a redirect, in order, the
	// first being URL; empty when URL answered itself.
	Redirects []string
	// RedirectLoop tells that the redirects never reached a page: they
	// came back to a URL of the chain, or passed MaxRedirects.
	RedirectLoop bool
	Title        string
	Description  string // the meta description
	Canonical    string // the rel=canonical URL, "" for none
	Noindex      bool   // a robots meta tag or X-Robots-Tag header says noindex (or none)
	// Fingerprint is the Fingerprint of the page's main text; 0 when it
	// has none (not HTML, no text).
	Fingerprint uint64
	Hreflang    []string // the hreflang alternates' URLs on the site
	// Lang is the page's language as its <html lang> declares it, lower
	// case; "" when it declares none.
	Lang            string
	InSitemap       bool // a sitemap of the site lists URL
	BlockedByRobots bool // robots.txt disallows URL for the crawler: not fetched
	// Outlinks are the on-site URLs the page links to (a[href] and
	// rel=next/prev), each once; canonical and hreflang links are in
	// their own fields.
	Outlinks []string
	// Render is what a rendered crawl did with the page when it audited
	// it; its facts above are then the rendered DOM's when Render.Rendered.
	Render PageRender
	// FoundByJS tells that the URL was first found through a link that
	// only the rendered DOM of the page linking to it has (its HTML does
	// not): a crawler that does not run scripts would not find it there.
	FoundByJS bool
}

// Landed reports whether URL itself answered with a page: a 2xx status
// without redirects. Only such records stand for a page in the checks of
// titles, content, depth, canonicals and hreflang (a redirecting URL's
// content is its target's, which has a record of its own).
func (p Page) Landed() bool {
	return p.Status >= 200 && p.Status < 300 && len(p.Redirects) == 0 && !p.BlockedByRobots
}

// Indexable reports whether search engines may index the page at URL: it
// landed, does not say noindex, and names no other URL as its canonical.
func (p Page) Indexable() bool {
	return p.Landed() && !p.Noindex && (p.Canonical == "" || p.Canonical == p.URL)
}

// Broken reports whether the URL leads to an error: a 4xx or 5xx status,
// or nothing answered (a redirect loop aside, which is an issue of its
// own, and a URL not fetched because robots.txt disallows it).
func (p Page) Broken() bool {
	return !p.BlockedByRobots && !p.RedirectLoop && (p.Status >= 400 || p.Status == 0)
}

// CompareDepth orders depths shallow first, NoDepth after every depth.
func CompareDepth(a, b int) int {
	if (a < 0) != (b < 0) {
		if a < 0 {
			return 1
		}
		return -1
	}
	return cmp.Compare(a, b)
}

// MinDepth is the shallower of two depths of one URL (NoDepth only when
// both are).
func MinDepth(a, b int) int {
	if CompareDepth(a, b) <= 0 {
		return a
	}
	return b
}

// Links returns the page's outlinks without repeats, in first-seen order:
// the link edges a store keeps (one per target, however often linked).
func (p Page) Links() []string {
	seen := make(map[string]bool, len(p.Outlinks))
	out := make([]string, 0, len(p.Outlinks))
	for _, l := range p.Outlinks {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}
