package crawl

// sitemapIssues finds noindex_in_sitemap, non_canonical_in_sitemap and
// sitemap_url_error: what is wrong with the URLs the sitemaps list.
func (d *Detector) sitemapIssues() []Issue {
	var out []Issue
	for id, r := range d.recs {
		if !r.added || !r.inSitemap || r.blocked {
			continue
		}
		u := d.urls[id]
		if !r.landed {
			rel, n := d.hops(r)
			if !r.redirected {
				rel, n = nil, 0
			}
			what := "answers " + itoa(r.status)
			switch {
			case r.loop:
				what = "redirects in a loop"
			case r.redirected:
				what = "redirects to " + d.urls[r.final]
			case r.status == 0:
				what = "could not be fetched"
			}
			out = append(out, Issue{Type: SitemapURLError, URL: u, Related: rel, RelatedTotal: n,
				Detail: "A sitemap lists the URL, but it " + what + "."})
			continue
		}
		if r.noindex {
			out = append(out, Issue{Type: NoindexInSitemap, URL: u,
				Detail: "A sitemap lists the URL, but the page asks not to be indexed (noindex)."})
		}
		if c := r.canonical; c >= 0 && c != int32(id) {
			out = append(out, Issue{Type: NonCanonicalInSitemap, URL: u, Related: []string{d.urls[c]}, RelatedTotal: 1,
				Detail: "A sitemap lists the URL, but the page names " + d.urls[c] + " as its canonical URL."})
		}
	}
	return out
}
