package crawlsite

import (
	"compress/gzip"
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"
)

// sitemapSize is how many filler pages one gzipped sitemap lists.
const sitemapSize = 1000

// offsiteURL is a URL /sitemap.xml lists on another host: a crawl skips
// it.
const offsiteURL = "https://example.com/elsewhere"

// urlset writes a sitemap of paths on origin, then of the absolute URLs
// offsite.
func urlset(origin string, paths []string, offsite ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, p := range paths {
		b.WriteString("<url><loc>" + html.EscapeString(origin+p) + "</loc></url>\n")
	}
	for _, u := range offsite {
		b.WriteString("<url><loc>" + html.EscapeString(u) + "</loc></url>\n")
	}
	b.WriteString("</urlset>\n")
	return b.String()
}

// sitemapIndex lists the sections' sitemap and the gzipped sitemaps of
// the filler pages.
func (s *Site) sitemapIndex(origin string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	b.WriteString("<sitemap><loc>" + origin + "/sitemaps/sections.xml</loc></sitemap>\n")
	for k := 1; (k-1)*sitemapSize < s.filler; k++ {
		fmt.Fprintf(&b, "<sitemap><loc>%s/sitemaps/pages-%d.xml.gz</loc></sitemap>\n", origin, k)
	}
	b.WriteString("</sitemapindex>\n")
	return b.String()
}

// fillerSitemap writes the k-th gzipped sitemap of filler pages, as a
// .gz file (not a Content-Encoding).
func (s *Site) fillerSitemap(w http.ResponseWriter, origin string, k int) {
	var paths []string
	for n := (k - 1) * sitemapSize; n < min(k*sitemapSize, s.filler); n++ {
		paths = append(paths, fillerPath(n))
	}
	var buf strings.Builder
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write([]byte(urlset(origin, paths)))
	_ = zw.Close()
	w.Header().Set("Content-Type", "application/gzip")
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	_, _ = w.Write([]byte(buf.String()))
}
