package pagecheck

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pinsight/pinsight/domain/webpage"
)

// Checks of the page's links and embedded objects as a crawler that runs no
// JavaScript reads them (Lighthouse's crawlable-anchors, link-text and
// plugins audits, read statically).

// checkCrawlableAnchors fails on <a> elements a crawler cannot follow: an
// href of javascript: or file:, or no href at all. An <a> without href is
// left alone when it is a named target (name or id), declares a role (a
// button, a tab) or marks the current item (aria-current), as Lighthouse
// leaves those alone; mailto:, tel: and fragment links are fine.
func checkCrawlableAnchors(p *page) Check {
	anchors := p.tags["a"]
	var codes codeList
	var o offenders
	for _, a := range anchors {
		href, ok := a.Attr("href")
		switch {
		case !ok:
			if named(a) {
				continue
			}
			codes.add("no_href")
		case squeezedPrefix(href, "javascript:"):
			codes.add("javascript_href")
		case squeezedPrefix(href, "file:"):
			codes.add("file_href")
		default:
			continue
		}
		o.addNode(a)
	}
	value := map[string]any{"links": num(len(anchors)), "uncrawlable": num(o.total)}
	if o.total > 0 {
		return defCrawlableAnchors.fail(value, fmt.Sprintf("%d of the page's %d links cannot be followed by a crawler (no href, or a javascript: or file: URL).", o.total, len(anchors)), codes...).blame(o)
	}
	return defCrawlableAnchors.pass(value, fmt.Sprintf("The page's %d links can all be followed by a crawler.", len(anchors)))
}

// squeezedPrefix reports whether strings.ToLower of href without its white
// space (strings.Fields joined) starts with prefix, lower-case ASCII,
// without writing it.
func squeezedPrefix(href, prefix string) bool {
	if !utf8.ValidString(href) { // the bytes around white space may join into a rune
		return strings.HasPrefix(strings.ToLower(strings.Join(strings.Fields(href), "")), prefix)
	}
	i := 0
	for _, r := range href {
		if i == len(prefix) {
			return true
		}
		if unicode.IsSpace(r) {
			continue
		}
		if unicode.ToLower(r) != rune(prefix[i]) {
			return false
		}
		i++
	}
	return i == len(prefix)
}

// named reports whether an <a> without href is something other than a
// link: a target, an element with a role, the current item.
func named(a *webpage.Node) bool {
	for _, k := range []string{"name", "id", "role", "aria-current"} {
		if _, ok := a.Attr(k); ok {
			return true
		}
	}
	return false
}

// genericLinkTexts are link texts that say nothing of the destination
// (compared lower case, white space collapsed, surrounding punctuation and
// symbols such as » → … removed), in English and in the Indian languages
// the project's users write most: Hindi, Bengali, Marathi, Tamil, Telugu.
// Each language lists "click here", "here", "more", "read more", "learn
// more", "details" and their usual variants (both spellings of यहाँ/यहां and
// আরও/আরো).
var genericLinkTexts = setOf(
	// English
	"click here", "click", "click this", "here", "right here", "this", "this link", "this page", "link", "go",
	"more", "more info", "more information", "information", "info", "read more", "learn more", "see more",
	"continue", "continue reading", "details", "start", "start here",
	// Hindi
	"यहाँ क्लिक करें", "यहां क्लिक करें", "क्लिक करें", "यहाँ", "यहां", "और पढ़ें", "आगे पढ़ें", "अधिक पढ़ें",
	"और", "अधिक", "और जानें", "अधिक जानें", "अधिक जानकारी", "विवरण",
	// Bengali
	"এখানে ক্লিক করুন", "ক্লিক করুন", "এখানে", "আরও পড়ুন", "আরো পড়ুন", "আরও", "আরো", "আরও জানুন", "আরো জানুন", "বিস্তারিত",
	// Marathi
	"येथे क्लिक करा", "इथे क्लिक करा", "क्लिक करा", "येथे", "इथे", "अधिक वाचा", "आणखी वाचा", "पुढे वाचा", "आणखी",
	"अधिक जाणून घ्या", "तपशील",
	// Tamil
	"இங்கே கிளிக் செய்யவும்", "இங்கே கிளிக் செய்க", "இங்கே", "மேலும் படிக்க", "மேலும் வாசிக்க", "மேலும்", "மேலும் அறிய", "விவரங்கள்",
	// Telugu
	"ఇక్కడ క్లిక్ చేయండి", "ఇక్కడ", "మరింత చదవండి", "ఇంకా చదవండి", "మరింత", "మరిన్ని", "మరింత తెలుసుకోండి", "వివరాలు",
)

func setOf(ss ...string) map[string]bool {
	m := make(map[string]bool, len(ss))
	for _, s := range ss {
		m[s] = true
	}
	return m
}

// linkText is the text of a link as compared with genericLinkTexts.
func linkText(a *webpage.Node) string {
	t := strings.ToLower(textPrefix(a, 60))
	return strings.TrimFunc(t, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.IsSpace(r) })
}

// checkLinkText fails on links whose whole text is generic ("click here",
// "read more", "और पढ़ें"): it tells neither readers nor search engines
// where the link leads. Links a crawler does not follow are skipped (no
// href, fragment-only, a scheme other than http(s), rel="nofollow"), as are
// links without text (images: see image_keywords).
func checkLinkText(p *page) Check {
	checked := 0
	var o offenders
	for _, a := range p.tags["a"] {
		href := attr(a, "href")
		if href == "" || strings.HasPrefix(href, "#") || hasToken(a, "rel", "nofollow") {
			continue
		}
		if s := refScheme(href); s != "" && s != "http" && s != "https" {
			continue // mailto:, tel:, javascript:...
		}
		t := linkText(a)
		if t == "" {
			continue
		}
		checked++
		if genericLinkTexts[t] {
			o.addNode(a)
		}
	}
	value := map[string]any{"links": num(checked), "generic": num(o.total)}
	if o.total > 0 {
		return defLinkText.fail(value, fmt.Sprintf("%d of %d links have generic text such as \"click here\" or \"read more\".", o.total, checked), "generic_text").blame(o)
	}
	return defLinkText.pass(value, fmt.Sprintf("The text of the page's %d links is descriptive.", checked))
}

// pluginTypes are the MIME types of browser plugins (Flash, Java,
// Silverlight); any application/x-java-* counts too.
var pluginTypes = setOf("application/x-shockwave-flash", "application/futuresplash", "application/java",
	"application/x-silverlight", "application/x-silverlight-2", "application/x-silverlight-app")

// pluginExts are the file types only a plugin plays.
var pluginExts = []string{".swf", ".flv", ".class", ".jar", ".xap"}

// pluginClassIDs are the ActiveX class ids of the Flash and Java plugins.
var pluginClassIDs = []string{"clsid:d27cdb6e-ae6d-11cf-96b8-444553540000", "clsid:8ad9c840-044e-11d1-b3e9-00805f499d93", "java:"}

// checkPlugins fails on content that needs a browser plugin: every
// <applet>, and <object> or <embed> elements whose type, classid, URL
// (src, data, or a <param> named movie, src, code, source or archive)
// names Flash, Java or Silverlight.
func checkPlugins(p *page) Check {
	var o offenders
	for _, n := range p.tags["applet"] {
		o.addNode(n)
	}
	for _, tag := range []string{"object", "embed"} {
		for _, n := range p.tags[tag] {
			if needsPlugin(n) {
				o.addNode(n)
			}
		}
	}
	if o.total > 0 {
		return defPlugins.fail(num(o.total), fmt.Sprintf("%d element(s) need a Flash, Java or Silverlight plugin, which browsers no longer run and crawlers cannot read.", o.total), "plugins").blame(o)
	}
	return defPlugins.pass(num(0), "The page needs no browser plugin.")
}

// needsPlugin reports whether an <object> or <embed> needs a plugin.
func needsPlugin(n *webpage.Node) bool {
	t := strings.ToLower(attr(n, "type"))
	if mt, _, _ := strings.Cut(t, ";"); pluginTypes[strings.TrimSpace(mt)] || strings.HasPrefix(mt, "application/x-java") {
		return true
	}
	cls := strings.ToLower(attr(n, "classid"))
	for _, id := range pluginClassIDs {
		if strings.HasPrefix(cls, id) {
			return true
		}
	}
	urls := []string{attr(n, "src"), attr(n, "data"), attr(n, "code")}
	for _, c := range n.Children {
		if c.Type == webpage.ElementNode && c.Tag == "param" {
			switch strings.ToLower(attr(c, "name")) {
			case "movie", "src", "code", "source", "archive":
				urls = append(urls, attr(c, "value"))
			}
		}
	}
	for _, u := range urls {
		u = strings.ToLower(u)
		u, _, _ = strings.Cut(u, "#")
		u, _, _ = strings.Cut(u, "?")
		for _, ext := range pluginExts {
			if strings.HasSuffix(u, ext) {
				return true
			}
		}
	}
	return false
}

// refScheme is the scheme of a URL reference, lower case; "" for a
// relative reference. It reads only what precedes the first ":".
func refScheme(ref string) string {
	for i := 0; i < len(ref); i++ {
		switch c := ref[i]; {
		case c == ':':
			return strings.ToLower(ref[:i])
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return ""
		}
	}
	return ""
}
