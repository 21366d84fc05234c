package pagecheck

import (
	"fmt"
	"math"
	"mime"
	"sort"
	"strconv"
	"strings"

	"github.com/pinsight/pinsight/domain/pagecheck/internal/css"
	"github.com/pinsight/pinsight/domain/webpage"
)

// Content thresholds.
const (
	minWords         = 500 // visible words in the body
	minTextHTMLRatio = 10  // percent of the HTML that is visible text
)

var miscCheckers = []checker{
	checkStructuredData, checkMetaViewport, checkCharset, checkSitemap, checkSocial,
	checkContentLength, checkTextHTMLRatio, checkInlineCSS, checkDeprecatedHTML, checkDoctype,
	checkFontSize,
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
	// Low: only the base size of inline CSS can be read without rendering,
	// and Google no longer reports mobile usability.
	defFontSize = definition{"font_size", "Legible font size", Miscellaneous, Low}
)

// checkStructuredData looks for Open Graph and Twitter card meta tags,
// JSON-LD and microdata, and fails when there is none or when a JSON-LD
// block cannot be read (jsonLDProblems): search engines skip a broken
// block entirely.
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
	var codes codeList
	var o offenders
	blocks, valid := 0, 0
	for _, s := range p.tags["script"] {
		if !isJSONLD(s) {
			continue
		}
		blocks++
		problems := jsonLDProblems(textOf(s))
		for _, c := range problems {
			codes.add(c)
		}
		if len(problems) > 0 {
			o.addNode(s)
		} else {
			valid++
		}
	}
	if valid > 0 {
		kinds = append(kinds, "json_ld")
	}
	for _, n := range p.tags["body"] {
		found := false
		n.Walk(func(c *webpage.Node) bool {
			if _, ok := c.Attr("itemscope"); ok && c.Type == webpage.ElementNode {
				found = true
			}
			return !found
		})
		if found {
			kinds = append(kinds, "microdata")
		}
	}
	if len(codes) > 0 {
		return defStructuredData.fail(list(kinds), fmt.Sprintf("%d of the page's %d JSON-LD block(s) cannot be read as structured data (%s).", o.total, blocks, strings.Join(codes, ", ")), codes...).blame(o)
	}
	if len(kinds) == 0 {
		return defStructuredData.fail(list(nil), "The page has no structured data (Open Graph, Twitter cards, JSON-LD or microdata).", "missing")
	}
	return defStructuredData.pass(list(kinds), "The page has structured data: "+strings.Join(kinds, ", ")+".")
}

// minMaximumScale is the lowest viewport maximum-scale that lets visitors
// zoom enough: Lighthouse's meta-viewport rule ("[maximum-scale] is not
// less than 5").
const minMaximumScale = 5

// checkMetaViewport reads the last viewport meta tag with content (the one
// browsers apply). It fails when there is none, when it sets neither width
// nor initial-scale (Lighthouse's viewport audit: phones then lay the page
// out at desktop width), and when it blocks zooming: user-scalable=no (or
// 0, or a number between -1 and 1) or a maximum-scale below
// minMaximumScale.
func checkMetaViewport(p *page) Check {
	var meta *webpage.Node
	content := ""
	for _, m := range p.metas("name", "viewport") {
		if c := attr(m, "content"); c != "" {
			meta, content = m, c
		}
	}
	if meta == nil {
		return defMetaViewport.fail(nil, "The page has no meta viewport, so phones render it zoomed out.", "missing")
	}
	props := viewportProps(content)
	var codes codeList
	var why []string
	if props["width"] == "" && props["initial-scale"] == "" {
		codes.add("no_width")
		why = append(why, "sets neither width nor initial-scale")
	}
	if us := props["user-scalable"]; us == "no" || us == "0" || us == "false" || between(us, -1, 1) {
		codes.add("blocks_zoom")
		why = append(why, "disables zooming (user-scalable="+us+")")
	}
	if ms, err := strconv.ParseFloat(props["maximum-scale"], 64); err == nil && ms >= 0 && ms < minMaximumScale {
		codes.add("blocks_zoom")
		why = append(why, fmt.Sprintf("limits zooming to %s×, below %d×", props["maximum-scale"], minMaximumScale))
	}
	if len(codes) > 0 {
		return defMetaViewport.fail(content, "The viewport meta tag "+strings.Join(why, " and ")+".", codes...).blame(one(meta))
	}
	return defMetaViewport.pass(content, "The page sets a viewport for mobile devices and lets visitors zoom.")
}

// viewportProps parses a viewport content ("width=device-width,
// initial-scale=1"): keys and values lower case; commas or semicolons
// separate them, as browsers accept.
func viewportProps(content string) map[string]string {
	out := map[string]string{}
	for part := range strings.FieldsFuncSeq(content, func(r rune) bool { return r == ',' || r == ';' }) {
		k, v, _ := strings.Cut(part, "=")
		out[strings.ToLower(strings.TrimSpace(k))] = strings.ToLower(strings.TrimSpace(v))
	}
	return out
}

// between reports whether s is a number strictly between lo and hi.
func between(s string, lo, hi float64) bool {
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && f > lo && f < hi
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
	if len(rt.Sitemaps) == 0 {
		return defSitemap.fail(list(nil), "robots.txt lists no sitemap.", "missing")
	}
	return defSitemap.pass(list(rt.Sitemaps), fmt.Sprintf("robots.txt lists %d sitemap(s).", len(rt.Sitemaps)))
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
	n := p.wordCount()
	if n < minWords {
		return defContentLength.fail(num(n), fmt.Sprintf("The page has %d words of text; aim for at least %d.", n, minWords), "too_short")
	}
	return defContentLength.pass(num(n), fmt.Sprintf("The page has %d words of text.", n))
}

func checkTextHTMLRatio(p *page) Check {
	ratio := 0.0
	if n := len(p.f.Page.Body); n > 0 {
		ratio = math.Floor(10000*float64(len(p.text))/float64(n)) / 100
	}
	if ratio < minTextHTMLRatio {
		return defTextHTMLRatio.fail(ratio, fmt.Sprintf("Text is %.2f %% of the HTML; aim for at least %d %%.", ratio, minTextHTMLRatio), "too_low")
	}
	return defTextHTMLRatio.pass(ratio, fmt.Sprintf("Text is %.2f %% of the HTML.", ratio))
}

func checkInlineCSS(p *page) Check {
	if len(p.styled) > 0 {
		tags := make([]string, len(p.styled))
		var o offenders
		for i, n := range p.styled {
			tags[i] = n.Tag
			o.addNode(n)
		}
		return defInlineCSS.fail(list(tags), fmt.Sprintf("%d element(s) carry inline style attributes.", len(p.styled)), "inline_styles").blame(o)
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
	var o offenders
	for _, t := range deprecatedTags {
		if len(p.tags[t]) > 0 {
			found = append(found, t)
		}
		for _, n := range p.tags[t] {
			o.addNode(n)
		}
	}
	if len(found) > 0 {
		return defDeprecatedHTML.fail(list(found), "The page uses deprecated elements: "+strings.Join(found, ", ")+".", "deprecated_tags").blame(o)
	}
	return defDeprecatedHTML.pass(list(nil), "The page uses no deprecated elements.")
}

func checkDoctype(p *page) Check {
	for _, n := range p.doc.Children {
		if n.Type != webpage.DoctypeNode {
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

// minFontPx is the smallest legible base font size (Lighthouse's
// font-size audit: text under 12px is hard to read on phones).
const minFontPx = 12

// baseFont is the page's base font size as far as its inline CSS tells.
type baseFont struct {
	px     float64 // in CSS pixels
	known  bool    // false when a declaration cannot be computed statically
	decl   string  // the declaration that sets it ("" for the browsers' default)
	unread string  // the declaration that cannot be computed
}

// fontDecl is a font-size (or font) declaration for <html> or <body>.
type fontDecl struct {
	value       string // a font-size value
	specificity int    // later declarations win at equal or higher specificity
	where       string // for a report
}

// baseFontSize computes the font size of <body> from the inline <style>
// rules for html, :root and body (at-rules skipped) and the style
// attributes of <html> and <body>: em and % of body are relative to html,
// html's to the browsers' 16px.
func (p *page) baseFontSize() baseFont {
	var html, body fontDecl
	set := func(d *fontDecl, value string, spec int, where string) {
		if spec >= d.specificity {
			*d = fontDecl{value, spec, where}
		}
	}
	declare := func(target *fontDecl, spec int, where func(prop, value string) string, block string) {
		css.Decls(block, func(prop, value string) {
			switch prop {
			case "font-size":
				set(target, value, spec, where(prop, value))
			case "font":
				if size := css.ShorthandSize(value); size != "" {
					set(target, size, spec, where(prop, value))
				} else if v := strings.ToLower(value); v == "inherit" || v == "initial" || v == "unset" {
					set(target, v, spec, where(prop, value))
				}
			}
		})
	}
	for _, st := range p.tags["style"] {
		if m := strings.ToLower(attr(st, "media")); m != "" && m != "all" && m != "screen" {
			continue
		}
		for _, r := range css.Rules(textOf(st)) {
			for sel := range strings.SplitSeq(r.Selector, ",") {
				sel = strings.ToLower(strings.Join(strings.Fields(sel), " "))
				where := func(prop, value string) string { return sel + " { " + prop + ": " + value + " }" }
				switch sel {
				case "html":
					declare(&html, 1, where, r.Block)
				case ":root", "html:root":
					declare(&html, 10, where, r.Block)
				case "body", "html body", "html > body":
					declare(&body, 1, where, r.Block)
				case ":root body", ":root > body":
					declare(&body, 11, where, r.Block)
				}
			}
		}
	}
	for _, pair := range []struct {
		tag    string
		target *fontDecl
	}{{"html", &html}, {"body", &body}} {
		for _, n := range p.tags[pair.tag] {
			if style, ok := n.Attr("style"); ok {
				tag := pair.tag
				declare(pair.target, 1000, func(prop, value string) string { return "<" + tag + " style=\"" + prop + ": " + value + "\">" }, style)
			}
		}
	}
	out := baseFont{px: css.DefaultFontPx, known: true}
	if html.value != "" {
		px, ok := css.FontSizePx(html.value, css.DefaultFontPx, css.DefaultFontPx)
		if !ok {
			return baseFont{unread: html.where}
		}
		out.px, out.decl = px, html.where
	}
	if body.value != "" {
		px, ok := css.FontSizePx(body.value, out.px, out.px)
		if !ok {
			return baseFont{unread: body.where}
		}
		out.px, out.decl = px, body.where
	}
	return out
}

// checkFontSize fails when the page's base font size, as its inline CSS
// sets it, is below minFontPx. It cannot see sizes set by linked style
// sheets or scripts, nor text made smaller below <body>: a page whose
// inline CSS sets no base size passes on the browsers' default.
func checkFontSize(p *page) Check {
	b := p.baseFontSize()
	linked := len(p.links("stylesheet"))
	note := ""
	if linked > 0 {
		note = fmt.Sprintf(" (%d linked style sheet(s) not read)", linked)
	}
	switch {
	case !b.known:
		return defFontSize.pass(nil, "The base font size cannot be computed without rendering the page ("+b.unread+"); not checked.")
	case b.px < minFontPx:
		return defFontSize.fail(round2(b.px), fmt.Sprintf("The base font size is %gpx, below %dpx: %s.", round2(b.px), minFontPx, b.decl), "too_small").
			blame(offenders{items: []string{b.decl}, total: 1})
	case b.decl == "":
		return defFontSize.pass(num(css.DefaultFontPx), fmt.Sprintf("The page's inline CSS sets no base font size, so browsers use their default of %dpx%s.", css.DefaultFontPx, note))
	}
	return defFontSize.pass(round2(b.px), fmt.Sprintf("The base font size is %gpx (%s)%s.", round2(b.px), b.decl, note))
}

// round2 rounds f to two decimals.
func round2(f float64) float64 { return math.Round(f*100) / 100 }
