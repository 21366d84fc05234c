package pagecheck

import (
	"net/url"
	"strings"

	"github.com/pinsight/pinsight/domain/webpage"
)

// linkRef is a link a page declares to another URL, in its markup
// (<link rel=... href=...>) or in its Link response header.
type linkRef struct {
	raw  string        // the URL as written
	url  *url.URL      // resolved (markup against the base, a header against the page URL); nil when unusable
	abs  bool          // written as an absolute http(s) URL with a host
	lang string        // hreflang, for an alternate
	node *webpage.Node // the <link> element; nil for a header
	link string        // the header's link-value, for a header
}

// fromHeader reports whether the reference comes from the Link header.
func (r linkRef) fromHeader() bool { return r.node == nil }

// where is what declares the reference, for a report: the element or the
// header value.
func (r linkRef) where() string {
	if r.node != nil {
		return snippet(r.node)
	}
	return "Link: " + r.link
}

// key is the reference's URL in comparable form (normURL), or what was
// written when it is unusable.
func (r linkRef) key() string {
	if r.url == nil {
		return r.raw
	}
	return normURL(r.url)
}

// refs are the canonical and language-alternate links of a page.
type refs struct {
	canonicals []linkRef
	alternates []linkRef // rel="alternate" with an hreflang
}

// references collects p's canonical and hreflang links, markup first, then
// the Link header.
func (p *page) references() *refs {
	if p.refs != nil {
		return p.refs
	}
	r := &refs{}
	for _, l := range p.tags["link"] {
		href := attr(l, "href")
		switch {
		case hasToken(l, "rel", "canonical"):
			r.canonicals = append(r.canonicals, p.ref(href, l, "", p.base))
		case hasToken(l, "rel", "alternate"):
			if lang, ok := l.Attr("hreflang"); ok {
				ref := p.ref(href, l, "", p.base)
				ref.lang = strings.TrimSpace(lang)
				r.alternates = append(r.alternates, ref)
			}
		}
	}
	for _, h := range parseLinkHeader(p.f.Page.Header["Link"]) {
		switch {
		case h.hasRel("canonical"):
			r.canonicals = append(r.canonicals, p.ref(h.target, nil, h.raw, p.url))
		case h.hasRel("alternate") && h.hreflang != "":
			ref := p.ref(h.target, nil, h.raw, p.url)
			ref.lang = h.hreflang
			r.alternates = append(r.alternates, ref)
		}
	}
	p.refs = r
	return r
}

// ref resolves raw against base into a reference.
func (p *page) ref(raw string, n *webpage.Node, link string, base *url.URL) linkRef {
	r := linkRef{raw: raw, node: n, link: link}
	if raw == "" {
		return r
	}
	if u, err := url.Parse(raw); err == nil {
		r.abs = u.IsAbs() && u.Host != "" && (u.Scheme == "http" || u.Scheme == "https")
	}
	if u, err := base.Parse(raw); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		r.url = u
	}
	return r
}

// self is the set of URLs that stand for the page itself: its final URL
// and, when it declares exactly one usable canonical URL, that one.
func (p *page) self() map[string]bool {
	s := map[string]bool{normURL(p.url): true}
	if c := p.canonical(); c != nil {
		s[normURL(c)] = true
	}
	return s
}

// canonical is the canonical URL the page declares when its declarations
// agree on one usable URL; nil otherwise.
func (p *page) canonical() *url.URL {
	var u *url.URL
	for _, c := range p.references().canonicals {
		if c.url == nil {
			return nil
		}
		if u != nil && normURL(u) != normURL(c.url) {
			return nil
		}
		u = c.url
	}
	return u
}

// normURL is u without fragment, its host lower case and an empty path as
// "/", for comparing links to the page.
func normURL(u *url.URL) string {
	c := *u
	c.Fragment, c.RawFragment = "", ""
	c.Host = strings.ToLower(c.Host)
	if c.Path == "" {
		c.Path = "/"
	}
	return c.String()
}
