package crawlsite

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// serve answers one request.
func (s *Site) serve(w http.ResponseWriter, r *http.Request) {
	origin := "http://" + r.Host
	if r.TLS != nil {
		origin = "https://" + r.Host
	}
	path := r.URL.EscapedPath()
	key := path
	if r.URL.RawQuery != "" {
		key += "?" + r.URL.RawQuery
	}
	if e, ok := s.routes[key]; ok {
		s.answer(w, origin, key, e)
		return
	}
	switch {
	case path == "/robots.txt":
		write(w, "text/plain; charset=utf-8", robotsTxt(origin))
	case path == "/llms.txt":
		write(w, "text/markdown; charset=utf-8", llmsTxt(origin))
	case path == "/sitemap.xml":
		write(w, "application/xml", urlset(origin, s.sitemap, offsiteURL))
	case path == "/sitemap_index.xml":
		write(w, "application/xml", s.sitemapIndex(origin))
	case path == "/sitemaps/sections.xml":
		paths := []string{StartPath}
		for h := range s.sections {
			paths = append(paths, sectionPath(h))
		}
		write(w, "application/xml", urlset(origin, paths))
	case strings.HasPrefix(path, "/sitemaps/pages-") && strings.HasSuffix(path, ".xml.gz"):
		k, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(path, "/sitemaps/pages-"), ".xml.gz"))
		if err != nil || k < 1 || (k-1)*sitemapSize >= s.filler {
			http.NotFound(w, r)
			return
		}
		s.fillerSitemap(w, origin, k)
	case path == StartPath:
		s.answer(w, origin, path, s.home())
	case strings.HasPrefix(path, "/endless/"):
		n, err := strconv.Atoi(strings.TrimPrefix(path, "/endless/"))
		if err != nil || n < 1 {
			http.NotFound(w, r)
			return
		}
		s.answer(w, origin, path, &entry{status: 302, location: fmt.Sprintf("/endless/%d", n+1)})
	default:
		if e := s.generated(path); e != nil {
			s.answer(w, origin, path, e)
			return
		}
		s.answer(w, origin, path, &entry{status: http.StatusNotFound})
	}
}

// write answers 200 with body.
func write(w http.ResponseWriter, contentType, body string) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	_, _ = w.Write([]byte(body))
}

// answer serves e at path.
func (s *Site) answer(w http.ResponseWriter, origin, path string, e *entry) {
	switch {
	case e.reset:
		panic(http.ErrAbortHandler) // net/http drops the connection without an answer
	case e.status >= 300 && e.status < 400:
		loc := e.location
		if e.absLocation {
			loc = origin + loc
		}
		w.Header().Set("Location", loc)
		w.WriteHeader(e.status)
	case e.status >= 400:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(e.status)
		_, _ = fmt.Fprintf(w, "<!doctype html>\n<html lang=\"en\"><head><title>%d %s</title></head><body><h1>%s</h1></body></html>\n",
			e.status, http.StatusText(e.status), http.StatusText(e.status))
	default:
		if e.noindexHeader {
			w.Header().Set("X-Robots-Tag", "noindex")
		}
		write(w, "text/html; charset=utf-8", render(origin, path, e))
	}
}

// sectionPath is the path of the section page h.
func sectionPath(h int) string { return fmt.Sprintf("/s/%d", h) }

// home is the start page: it links to every section and to the planted
// URLs, and to URLs a crawl never follows (another host, mailto:).
func (s *Site) home() *entry {
	links := make([]string, 0, s.sections+len(s.homeLinks)+2)
	for h := range s.sections {
		links = append(links, sectionPath(h))
	}
	links = append(links, s.homeLinks...)
	links = append(links, "https://example.com/elsewhere", "mailto:webmaster@example.com")
	return &entry{title: "Crawl fixture", desc: "The start page of a generated site for testing whole-site audits.", links: links}
}

// generated is the section page, filler page or printable filler page at
// path, nil for none.
func (s *Site) generated(path string) *entry {
	if rest, ok := strings.CutPrefix(path, "/s/"); ok {
		h, err := strconv.Atoi(rest)
		if err != nil || h < 0 || h >= s.sections || strconv.Itoa(h) != rest {
			return nil
		}
		var links []string
		if h == 0 {
			links = append(links, "../missing/3#top") // a broken link, relative and with a fragment
		}
		for n := h * s.perSection; n < min((h+1)*s.perSection, s.filler); n++ {
			links = append(links, fillerPath(n))
		}
		return &entry{title: fmt.Sprintf("Section %d", h), desc: fmt.Sprintf("Section %d of the fixture site lists its pages.", h), links: links}
	}
	rest, ok := strings.CutPrefix(path, "/p/")
	if !ok {
		return nil
	}
	rest, printable := strings.CutSuffix(rest, "/print")
	n, err := strconv.Atoi(rest)
	if err != nil || n < 0 || n >= s.filler || strconv.Itoa(n) != rest {
		return nil
	}
	if printable { // disallowed by robots.txt: only clients ignoring it come here
		return &entry{title: fmt.Sprintf("Fixture page %d, printable", n)}
	}
	links := []string{sectionPath(n / s.perSection)}
	if n+1 < s.filler {
		links = append(links, fillerPath(n+1)+"#top")
	}
	if n > 0 {
		links = append(links, fillerPath(n-1))
	}
	links = append(links, s.fillerLinks[n]...)
	e := &entry{title: fmt.Sprintf("Fixture page %d: %s", n, text(fillerPath(n)+"#title", 3)), canonical: fillerPath(n), links: links}
	if n%10 != 9 { // some pages have no description: no duplicates either
		e.desc = fmt.Sprintf("About fixture page %d: %s.", n, text(fillerPath(n)+"#desc", 8))
	}
	return e
}
