package pagecheck

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pinsight/pinsight/domain/robots"
	"github.com/pinsight/pinsight/domain/webpage"
)

// page is a fetched page indexed once, in a single walk, for the checks.
type page struct {
	f        *webpage.Fetched
	doc      *webpage.Node
	url      *url.URL // the final URL (empty when unparsable)
	base     *url.URL // what relative links resolve against (<base href> applied)
	tags     map[string][]*webpage.Node
	elements int                    // every element, foreign (SVG, MathML) ones included
	text     string                 // visible body text, words separated by single spaces
	styled   []*webpage.Node        // elements with a style attribute
	modern   map[*webpage.Node]bool // <img> inside a <picture> offering a WebP / AVIF source
	res      []resource             // subresources the page loads, computed lazily
	refs     *refs                  // canonical and hreflang links, computed lazily
	rules    *directives            // robots directives, computed lazily
	site     *siteRobots            // the site's robots.txt, parsed lazily
	resolved map[string]*url.URL    // resolve's answers by trimmed reference (nil: refused)
	written  map[*url.URL]string    // urlString's answers
}

// siteRobots is a site's parsed robots.txt; ok is false when it has none.
type siteRobots struct {
	file robots.File
	ok   bool
}

// resource is a subresource a page loads: a script, a stylesheet, an image...
type resource struct {
	kind string // "script", "stylesheet", "image", "frame", "media", "object"
	url  string // as written in the page
}

// skipText lists elements whose content is not visible text.
// (template content is inert, so its elements are not indexed either).
var skipText = map[string]bool{"script": true, "style": true, "noscript": true, "template": true, "title": true}

// newPage indexes f. A page that is not HTML gets an empty document, so the
// HTML checks fail as "missing" rather than crash.
func newPage(f *webpage.Fetched) *page {
	p := &page{f: f, doc: f.Document, tags: map[string][]*webpage.Node{}, modern: map[*webpage.Node]bool{}}
	p.locate()
	var sb strings.Builder
	inBody := 0
	var walk func(n *webpage.Node)
	walk = func(n *webpage.Node) {
		switch n.Type {
		case webpage.ElementNode:
			p.elements++
			p.tags[n.Tag] = append(p.tags[n.Tag], n)
			if _, ok := n.Attr("style"); ok {
				p.styled = append(p.styled, n)
			}
			switch {
			case n.Tag == "svg" || n.Tag == "math":
				p.elements += countElements(n) - 1 // foreign content: counted, not indexed
				return
			case skipText[n.Tag]:
				return // the checks that need this text read it from the node
			case n.Tag == "picture":
				p.markModern(n)
			}
			if n.Tag == "body" {
				inBody++
				defer func() { inBody-- }()
			}
		case webpage.TextNode:
			if inBody > 0 {
				appendWords(&sb, n.Text)
			}
			return
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(p.doc)
	p.text = sb.String()
	p.applyBase()
	return p
}

// linkPage indexes only the <link> and <base> elements of f: what
// FollowUps and the return-link check of an alternate read.
func linkPage(f *webpage.Fetched) *page {
	p := &page{f: f, doc: f.Document, tags: map[string][]*webpage.Node{}}
	p.locate()
	p.doc.Walk(func(n *webpage.Node) bool {
		if n.Type != webpage.ElementNode {
			return true
		}
		switch n.Tag {
		case "link", "base":
			p.tags[n.Tag] = append(p.tags[n.Tag], n)
		case "svg", "math", "template":
			return false // not indexed by newPage either
		}
		return true
	})
	p.applyBase()
	return p
}

// locate gives p an empty document when f has none and sets its URL.
func (p *page) locate() {
	if p.doc == nil {
		p.doc = &webpage.Node{Type: webpage.DocumentNode}
	}
	if u, err := url.Parse(p.f.FinalURL()); err == nil {
		p.url = u
	} else {
		p.url = &url.URL{}
	}
	p.base = p.url
}

// applyBase makes the first <base href> what relative links resolve
// against.
func (p *page) applyBase() {
	if bases := p.tags["base"]; len(bases) > 0 {
		if href, ok := bases[0].Attr("href"); ok {
			if b, err := p.url.Parse(strings.TrimSpace(href)); err == nil {
				p.base = b
			}
		}
	}
}

// countElements counts n and its descendant elements.
func countElements(n *webpage.Node) int {
	c := 0
	n.Walk(func(d *webpage.Node) bool {
		if d.Type == webpage.ElementNode {
			c++
		}
		return true
	})
	return c
}

// markModern records the <img> of a <picture> that offers a WebP or AVIF
// <source>: browsers that can will not load the legacy fallback.
func (p *page) markModern(picture *webpage.Node) {
	offers := false
	var imgs []*webpage.Node
	picture.Walk(func(n *webpage.Node) bool {
		if n.Type != webpage.ElementNode {
			return true
		}
		switch n.Tag {
		case "source":
			t, _ := n.Attr("type")
			set, _ := n.Attr("srcset")
			if isModernImage(t, set) {
				offers = true
			}
		case "img":
			imgs = append(imgs, n)
		}
		return true
	})
	if offers {
		for _, img := range imgs {
			p.modern[img] = true
		}
	}
}

// appendWords appends the words of s to sb, single-space separated.
func appendWords(sb *strings.Builder, s string) {
	for w := range strings.FieldsSeq(s) {
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(w)
	}
}

// textOf is the text inside n, whitespace collapsed.
func textOf(n *webpage.Node) string {
	if t, ok := soleText(n); ok && collapsed(t) {
		return t // what appendWords would write: no copy
	}
	return joinedText(n)
}

// joinedText is textOf written word by word.
func joinedText(n *webpage.Node) string {
	var sb strings.Builder
	n.Walk(func(c *webpage.Node) bool {
		if c.Type == webpage.TextNode {
			appendWords(&sb, c.Text)
		}
		return true
	})
	return sb.String()
}

// soleText is the text of the only text node inside n; ok is false when
// there are none or several.
func soleText(n *webpage.Node) (text string, ok bool) {
	texts := 0
	n.Walk(func(c *webpage.Node) bool {
		if c.Type == webpage.TextNode {
			text = c.Text
			texts++
		}
		return texts < 2
	})
	return text, texts == 1
}

// collapsed reports whether s is its words (strings.Fields) joined by
// single spaces, as appendWords writes them.
func collapsed(s string) bool {
	space := true // before the first word: a space there is not collapsed
	for i := 0; i < len(s); {
		r, w := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeRuneInString(s[i:])
		}
		if unicode.IsSpace(r) {
			if space || r != ' ' {
				return false
			}
			space = true
		} else {
			space = false
		}
		i += w
	}
	return !space || s == ""
}

// wordCount is the number of words of the visible body text
// (strings.Fields), counted without a list of them.
func (p *page) wordCount() int {
	n := 0
	for range strings.FieldsSeq(p.text) {
		n++
	}
	return n
}

// attr is the trimmed value of n's attribute key ("" when absent).
func attr(n *webpage.Node, key string) string {
	v, _ := n.Attr(key)
	return strings.TrimSpace(v)
}

// hasToken reports whether the space-separated attribute key of n holds
// token, case-insensitively (rel="noopener noreferrer").
func hasToken(n *webpage.Node, key, token string) bool {
	for t := range strings.FieldsSeq(attr(n, key)) {
		if strings.EqualFold(t, token) {
			return true
		}
	}
	return false
}

// metas returns the <meta> elements whose attribute key equals val
// (case-insensitively), e.g. name="description".
func (p *page) metas(key, val string) []*webpage.Node {
	var out []*webpage.Node
	for _, m := range p.tags["meta"] {
		if strings.EqualFold(attr(m, key), val) {
			out = append(out, m)
		}
	}
	return out
}

// links returns the <link> elements whose rel holds token.
func (p *page) links(token string) []*webpage.Node {
	var out []*webpage.Node
	for _, l := range p.tags["link"] {
		if hasToken(l, "rel", token) {
			out = append(out, l)
		}
	}
	return out
}

// resolve resolves ref against the page's base; ok is false for an
// unparsable reference or a scheme other than http(s). Each reference is
// resolved once (several checks and the facts read the same links): the
// URL is shared, so callers must not modify it.
func (p *page) resolve(ref string) (*url.URL, bool) {
	ref = strings.TrimSpace(ref)
	if u, ok := p.resolved[ref]; ok {
		return u, u != nil
	}
	u, err := p.base.Parse(ref)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		u = nil
	}
	if p.resolved == nil {
		p.resolved = make(map[string]*url.URL, len(p.tags["a"]))
	}
	p.resolved[ref] = u
	return u, u != nil
}

// urlString is u.String() of a URL resolve returned, written once.
func (p *page) urlString(u *url.URL) string {
	if s, ok := p.written[u]; ok {
		return s
	}
	if p.written == nil {
		p.written = make(map[*url.URL]string, len(p.resolved))
	}
	s := u.String()
	p.written[u] = s
	return s
}

// sameSite reports whether host is the page's host, ignoring a leading
// "www." on either side and letter case.
func (p *page) sameSite(host string) bool {
	return siteHost(host) == siteHost(p.url.Hostname())
}

func siteHost(h string) string {
	return strings.TrimPrefix(strings.ToLower(strings.TrimSuffix(h, ".")), "www.")
}

// header returns the first value of the response header name (canonical
// form), trimmed.
func (p *page) header(name string) string { return headerValue(p.f.Page.Header, name) }

// resources lists the subresources the page loads.
func (p *page) resources() []resource {
	if p.res != nil {
		return p.res
	}
	p.res = []resource{}
	add := func(kind, tag, key string) {
		for _, n := range p.tags[tag] {
			if v := attr(n, key); v != "" {
				p.res = append(p.res, resource{kind, v})
			}
		}
	}
	add("script", "script", "src")
	for _, l := range p.tags["link"] {
		if href := attr(l, "href"); href != "" && (hasToken(l, "rel", "stylesheet") || hasToken(l, "rel", "preload") || hasToken(l, "rel", "modulepreload")) {
			p.res = append(p.res, resource{"stylesheet", href})
		}
	}
	add("image", "img", "src")
	add("frame", "iframe", "src")
	add("frame", "frame", "src")
	add("media", "video", "src")
	add("media", "audio", "src")
	add("media", "source", "src")
	add("media", "track", "src")
	add("object", "embed", "src")
	add("object", "object", "data")
	for _, in := range p.tags["input"] {
		if strings.EqualFold(attr(in, "type"), "image") {
			if v := attr(in, "src"); v != "" {
				p.res = append(p.res, resource{"image", v})
			}
		}
	}
	return p.res
}
