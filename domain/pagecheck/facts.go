package pagecheck

import (
	"strings"

	"github.com/pinsight/pinsight/domain/webpage"
)

// Facts are what a site crawl keeps of a page besides its audit, read the
// way the checks read them (the same <base>, canonical agreement and
// robots directives).
type Facts struct {
	Title       string // the first <title>'s text
	Description string // the first meta description's content
	// Canonical is the canonical URL the page declares when its
	// declarations agree on one usable URL; "" otherwise.
	Canonical string
	// Noindex tells that a robots directive for search engines (a meta
	// tag or an X-Robots-Tag header) says noindex or none.
	Noindex bool
	// Hreflang are the URLs of the page's usable hreflang alternates.
	Hreflang []string
	// Links are the URLs of the page's a[href] links and its
	// <link rel=next|prev>, resolved against its base, in document order.
	Links []string
	// Text is the page's visible body text, words separated by single
	// spaces.
	Text string
	// Words is the number of words of Text (the content_length check's
	// count).
	Words int
	// H1 are the texts of the page's <h1> headings, in document order.
	H1 []string
	// Lang is the first <html lang> attribute, trimmed ("" when none).
	Lang string
	// JSONLD counts the page's JSON-LD <script> blocks, valid or not.
	JSONLD int
	// InternalLinks and ExternalLinks count the page's a[href] links to
	// its own site and to others, as the in_page_links check counts them.
	InternalLinks, ExternalLinks int
}

// PageFacts reads f's page into Facts.
func PageFacts(f *webpage.Fetched) Facts { return newPage(f).facts() }

// facts reads p into Facts.
func (p *page) facts() Facts {
	f := p.f
	var out Facts
	if ts := p.tags["title"]; len(ts) > 0 {
		out.Title = textOf(ts[0])
	}
	if ms := p.metas("name", "description"); len(ms) > 0 {
		out.Description = strings.TrimSpace(attr(ms[0], "content"))
	}
	if c := p.canonical(); c != nil {
		out.Canonical = c.String()
	}
	noindex, _ := p.robotsDirectives().blocks(f.At)
	out.Noindex = len(noindex) > 0
	for _, a := range p.references().alternates {
		if a.url != nil {
			out.Hreflang = append(out.Hreflang, a.url.String())
		}
	}
	if n := len(p.tags["a"]); n > 0 {
		out.Links = make([]string, 0, n)
	}
	add := func(href string) {
		if u, ok := p.resolve(href); ok {
			out.Links = append(out.Links, p.urlString(u))
		}
	}
	for _, a := range p.tags["a"] {
		if href, ok := a.Attr("href"); ok {
			add(href)
		}
	}
	for _, l := range p.tags["link"] {
		if hasToken(l, "rel", "next") || hasToken(l, "rel", "prev") {
			add(attr(l, "href"))
		}
	}
	if len(out.Links) == 0 {
		out.Links = nil // none is nil, as without the room made above
	}
	out.Text = p.text
	out.Words = p.wordCount()
	for _, h := range p.tags["h1"] {
		out.H1 = append(out.H1, textOf(h))
	}
	for _, h := range p.tags["html"] {
		if l := attr(h, "lang"); l != "" {
			out.Lang = l
			break
		}
	}
	for _, s := range p.tags["script"] {
		if isJSONLD(s) {
			out.JSONLD++
		}
	}
	out.InternalLinks, out.ExternalLinks = p.linkCounts()
	return out
}
