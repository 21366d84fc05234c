package site

import (
	"encoding/json"
	"fmt"
	"math"
	"mime"
	"sort"
	"strings"
)

// Content thresholds.
const (
	MinWords         = 500 // visible words in the body
	MinTextHTMLRatio = 10  // percent of the HTML that is visible text
)

var miscCheckers = []checker{
	checkStructuredData, checkMetaViewport, checkCharset, checkSitemap, checkSocial,
	checkContentLength, checkTextHTMLRatio, checkInlineCSS, checkDeprecatedHTML, checkDoctype,
}

var (
	defStructuredData = definition{"structured_data", "Structured data", Miscellaneous, Medium}
	defMetaViewport   = definition{"meta_viewport", "Meta viewport", Miscellaneous, Medium}
	defCharset        = definition{"charset", "Charset", Miscellaneous, Medium}
	defSitemap        = definition{"sitemap", "Sitemap", Miscellaneous, Low}
	defSocial         = definition{"social", "Social", Miscellaneous, Low}
	defContentLength  = definition{"content_length", "Content length", Miscellaneous, Low}
	defTextHTMLRatio  = definition{"text_html_ratio", "Text to HTML ratio", Miscellaneous, Low}
	defInlineCSS      = definition{"inline_css", "Inline CSS", Miscellaneous, Low}
	defDeprecatedHTML = definition{"deprecated_html", "Deprecated HTML", Miscellaneous, Low}
	defDoctype        = definition{"doctype", "Doctype", Miscellaneous, Medium}
)

func checkStructuredData(p *page) Check {
	var kinds []string
	og, tw := false, false
	for _, m := range p.tags["meta"] {
		og = og || strings.HasPrefix(strings.ToLower(attr(m, "property")), "og:")
		tw = tw || strings.HasPrefix(strings.ToLower(attr(m, "name")), "twitter:") || strings.HasPrefix(strings.ToLower(attr(m, "property")), "twitter:")
	}
	if og {
		kinds = append(kinds, "open_graph")
	}
	if tw {
		kinds = append(kinds, "twitter")
	}
	for _, s := range p.tags["script"] {
		if strings.EqualFold(attr(s, "type"), "application/ld+json") && json.Valid([]byte(textOf(s))) {
			kinds = append(kinds, "json_ld")
			break
		}
	}
	for _, n := range p.tags["body"] {
		found := false
		n.Walk(func(c *Node) bool {
			if _, ok := c.Attr("itemscope"); ok && c.Type == ElementNode {
				found = true
			}
			return !found
		})
		if found {
			kinds = append(kinds, "microdata")
		}
	}
	if len(kinds) == 0 {
		return defStructuredData.fail(list(nil), "The page has no structured data (Open Graph, Twitter cards, JSON-LD or microdata).", "missing")
	}
	return defStructuredData.pass(list(kinds), "The page has structured data: "+strings.Join(kinds, ", ")+".")
}

func checkMetaViewport(p *page) Check {
	for _, m := range p.metas("name", "viewport") {
		if c := attr(m, "content"); c != "" {
			return defMetaViewport.pass(c, "The page sets a viewport for mobile devices.")
		}
	}
	return defMetaViewport.fail(nil, "The page has no meta viewport, so phones render it zoomed out.", "missing")
}

// declaredCharset is the charset the page declares in a meta tag, else in
// the Content-Type header.
func (p *page) declaredCharset() string {
	for _, m := range p.tags["meta"] {
		if c := attr(m, "charset"); c != "" {
			return c
		}
		if strings.EqualFold(attr(m, "http-equiv"), "content-type") {
			if _, params, err := mime.ParseMediaType(attr(m, "content")); err == nil && params["charset"] != "" {
				return params["charset"]
			}
		}
	}
	if _, params, err := mime.ParseMediaType(p.header("Content-Type")); err == nil {
		return params["charset"]
	}
	return ""
}

func checkCharset(p *page) Check {
	if c := p.declaredCharset(); c != "" {
		return defCharset.pass(c, "The page declares its character set ("+c+").")
	}
	return defCharset.fail(nil, "The page declares no character set.", "missing")
}

func checkSitemap(p *page) Check {
	rt, ok := p.robots()
	if !ok {
		return defSitemap.fail(list(nil), "There is no robots.txt to list a sitemap.", "missing")
	}
	if len(rt.sitemaps) == 0 {
		return defSitemap.fail(list(nil), "robots.txt lists no sitemap.", "missing")
	}
	return defSitemap.pass(list(rt.sitemaps), fmt.Sprintf("robots.txt lists %d sitemap(s).", len(rt.sitemaps)))
}

// socialHosts are social networks a site links to its profiles on.
var socialHosts = []string{
	"facebook.com", "twitter.com", "x.com", "instagram.com", "linkedin.com", "youtube.com",
	"pinterest.com", "tiktok.com", "github.com", "threads.net", "reddit.com", "t.me",
	"whatsapp.com", "wa.me", "snapchat.com", "tumblr.com", "vk.com", "mastodon.social", "bsky.app",
}

func checkSocial(p *page) Check {
	found := map[string]bool{}
	for _, a := range p.tags["a"] {
		u, ok := p.resolve(attr(a, "href"))
		if !ok {
			continue
		}
		h := strings.ToLower(u.Hostname())
		for _, s := range socialHosts {
			if h == s || strings.HasSuffix(h, "."+s) {
				found[s] = true
			}
		}
	}
	if len(found) == 0 {
		return defSocial.fail(list(nil), "The page links to no social network profile.", "missing")
	}
	names := make([]string, 0, len(found))
	for s := range found {
		names = append(names, s)
	}
	sort.Strings(names)
	return defSocial.pass(list(names), "The page links to "+strings.Join(names, ", ")+".")
}

func checkContentLength(p *page) Check {
	n := len(p.wordList())
	if n < MinWords {
		return defContentLength.fail(num(n), fmt.Sprintf("The page has %d words of text; aim for at least %d.", n, MinWords), "too_short")
	}
	return defContentLength.pass(num(n), fmt.Sprintf("The page has %d words of text.", n))
}

func checkTextHTMLRatio(p *page) Check {
	ratio := 0.0
	if n := len(p.f.Page.Body); n > 0 {
		ratio = math.Floor(10000*float64(len(p.text))/float64(n)) / 100
	}
	if ratio < MinTextHTMLRatio {
		return defTextHTMLRatio.fail(ratio, fmt.Sprintf("Text is %.2f %% of the HTML; aim for at least %d %%.", ratio, MinTextHTMLRatio), "too_low")
	}
	return defTextHTMLRatio.pass(ratio, fmt.Sprintf("Text is %.2f %% of the HTML.", ratio))
}

func checkInlineCSS(p *page) Check {
	if len(p.styled) > 0 {
		tags := make([]string, len(p.styled))
		for i, n := range p.styled {
			tags[i] = n.Tag
		}
		return defInlineCSS.fail(list(tags), fmt.Sprintf("%d element(s) carry inline style attributes.", len(p.styled)), "inline_styles")
	}
	return defInlineCSS.pass(list(nil), "No element carries an inline style attribute.")
}

// deprecatedTags are elements HTML no longer defines.
var deprecatedTags = []string{
	"acronym", "applet", "basefont", "bgsound", "big", "blink", "center", "dir", "font", "frame",
	"frameset", "isindex", "keygen", "listing", "marquee", "menuitem", "multicol", "nextid", "nobr",
	"noembed", "noframes", "plaintext", "spacer", "strike", "tt", "xmp",
}

func checkDeprecatedHTML(p *page) Check {
	var found []string
	for _, t := range deprecatedTags {
		if len(p.tags[t]) > 0 {
			found = append(found, t)
		}
	}
	if len(found) > 0 {
		return defDeprecatedHTML.fail(list(found), "The page uses deprecated elements: "+strings.Join(found, ", ")+".", "deprecated_tags")
	}
	return defDeprecatedHTML.pass(list(nil), "The page uses no deprecated elements.")
}

func checkDoctype(p *page) Check {
	for _, n := range p.doc.Children {
		if n.Type != DoctypeNode {
			continue
		}
		d := strings.TrimSpace(n.Tag + " " + n.Text)
		if !strings.EqualFold(n.Tag, "html") {
			return defDoctype.fail(d, "The doctype is not an HTML doctype.", "invalid")
		}
		return defDoctype.pass(d, "The page declares a doctype ("+d+"), so browsers render it in standards mode.")
	}
	return defDoctype.fail(nil, "The page has no doctype, so browsers render it in quirks mode.", "missing")
}
