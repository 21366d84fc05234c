package pagecheck

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pinsight/pinsight/domain/pagecheck/internal/langtag"
	"github.com/pinsight/pinsight/domain/robots"
	"github.com/pinsight/pinsight/domain/webpage"
)

// SEO thresholds.
const (
	maxTitleChars   = 60  // a longer title is cut in search results
	maxInPageLinks  = 150 // links on one page
	minKeywordRunes = 3   // shorter title words are not keywords
)

// seoCheckers are the SEO checks in report order; checks added later come
// last, so the order clients saw stays.
var seoCheckers = []checker{
	checkHTTPStatus, checkTitle, checkMetaDescription, checkHeadings, checkContentKeywords,
	checkImageAlt, checkSEOFriendlyURL, checkNotFoundPage, checkRobots, checkNoindex,
	checkInPageLinks, checkLanguage, checkFavicon, checkCanonical, checkHreflang,
	checkRobotsDirectives, checkCrawlableAnchors, checkLinkText, checkPlugins,
}

var (
	defHTTPStatus      = definition{"http_status", "HTTP status", SEO, High}
	defTitle           = definition{"title", "Title", SEO, High}
	defMetaDescription = definition{"meta_description", "Meta description", SEO, High}
	defHeadings        = definition{"headings", "Headings", SEO, High}
	defContentKeywords = definition{"content_keywords", "Content keywords", SEO, High}
	defImageAlt        = definition{"image_keywords", "Image alt text", SEO, Medium}
	defSEOFriendlyURL  = definition{"seo_friendly_url", "SEO friendly URLs", SEO, High}
	defNotFoundPage    = definition{"404_page", "404 page", SEO, High}
	defRobots          = definition{"robots", "Robots.txt", SEO, High}
	defNoindex         = definition{"noindex", "Noindex", SEO, High}
	defInPageLinks     = definition{"in_page_links", "In-page links", SEO, Medium}
	defLanguage        = definition{"language", "Language", SEO, Medium}
	defFavicon         = definition{"favicon", "Favicon", SEO, Medium}
	defCanonical       = definition{"canonical", "Canonical link", SEO, Medium}
	defHreflang        = definition{"hreflang", "Hreflang", SEO, Low}
	// Low: a malformed directive is ignored, which harms only when it was
	// meant to restrict (noindex catches the ones that exclude the page).
	defRobotsDirectives = definition{"robots_directives", "Robots directives", SEO, Low}
	// Medium, as canonical: a link a crawler cannot follow hides its
	// target from discovery, and link text is how search engines learn what
	// the target is about; plugin content is invisible to both crawlers and
	// browsers.
	defCrawlableAnchors = definition{"crawlable_anchors", "Crawlable links", SEO, Medium}
	defLinkText         = definition{"link_text", "Descriptive link text", SEO, Medium}
	defPlugins          = definition{"plugins", "Browser plugins", SEO, Medium}
)

func checkHTTPStatus(p *page) Check {
	s := p.f.Page.Status
	switch {
	case s >= 200 && s < 300:
		return defHTTPStatus.pass(num(s), fmt.Sprintf("The page answered %d.", s))
	case s >= 500:
		return defHTTPStatus.fail(num(s), fmt.Sprintf("The page answered %d, a server error.", s), "server_error")
	case s >= 400:
		return defHTTPStatus.fail(num(s), fmt.Sprintf("The page answered %d, a client error.", s), "client_error")
	}
	return defHTTPStatus.fail(num(s), fmt.Sprintf("The page answered %d instead of a success status.", s), "not_success")
}

func checkTitle(p *page) Check {
	titles := p.tags["title"]
	if len(titles) == 0 {
		return defTitle.fail(nil, "The page has no <title>.", "missing")
	}
	t := textOf(titles[0])
	var codes []string
	if t == "" {
		codes = append(codes, "missing")
	}
	if len(titles) > 1 {
		codes = append(codes, "too_many")
	}
	if n := utf8.RuneCountInString(t); n > maxTitleChars {
		codes = append(codes, "too_long")
	}
	if len(codes) > 0 {
		var o offenders
		for _, n := range titles {
			o.addNode(n)
		}
		return defTitle.fail(t, fmt.Sprintf("The title should be one <title> of 1 to %d characters; found %d element(s), the first %d characters long.",
			maxTitleChars, len(titles), utf8.RuneCountInString(t)), codes...).blame(o)
	}
	return defTitle.pass(t, "The page has a title of a good length.")
}

func checkMetaDescription(p *page) Check {
	metas := p.metas("name", "description")
	if len(metas) == 0 || attr(metas[0], "content") == "" {
		return defMetaDescription.fail(nil, "The page has no meta description.", "missing")
	}
	d := attr(metas[0], "content")
	if len(metas) > 1 {
		var o offenders
		for _, m := range metas {
			o.addNode(m)
		}
		return defMetaDescription.fail(d, fmt.Sprintf("The page has %d meta descriptions; keep one.", len(metas)), "too_many").blame(o)
	}
	return defMetaDescription.pass(d, "The page has a meta description.")
}

// headingTags are the heading elements, in rank order.
var headingTags = [...]string{"h1", "h2", "h3", "h4", "h5", "h6"}

func checkHeadings(p *page) Check {
	value := map[string]any{}
	for _, tag := range headingTags {
		if hs := p.tags[tag]; len(hs) > 0 {
			texts := make([]string, len(hs))
			for j, h := range hs {
				texts[j] = textOf(h)
			}
			value[tag] = list(texts)
		}
	}
	h1 := p.tags["h1"]
	switch {
	case len(h1) == 0:
		return defHeadings.fail(value, "The page has no <h1> heading.", "missing")
	case len(h1) > 1:
		var o offenders
		for _, h := range h1 {
			o.addNode(h)
		}
		return defHeadings.fail(value, fmt.Sprintf("The page has %d <h1> headings; keep one.", len(h1)), "too_many").blame(o)
	}
	if ts := p.tags["title"]; len(ts) > 0 && strings.EqualFold(textOf(h1[0]), textOf(ts[0])) {
		return defHeadings.fail(value, "The <h1> heading repeats the title; make it describe the content.", "same_as_title").blame(one(h1[0]))
	}
	return defHeadings.pass(value, "The page has one <h1> heading, distinct from the title.")
}

// stopWords are common words that are not keywords.
var stopWords = map[string]bool{
	"the": true, "and": true, "for": true, "are": true, "but": true, "not": true, "you": true,
	"your": true, "with": true, "from": true, "this": true, "that": true, "our": true, "all": true,
	"has": true, "have": true, "was": true, "were": true, "its": true, "into": true, "about": true,
	"how": true, "what": true, "who": true, "why": true, "when": true, "where": true, "home": true,
	"page": true, "welcome": true, "www": true, "com": true,
}

// keywords splits s into lower-case words of letters, digits and combining
// marks (the vowel signs of Devanagari, Bengali, Tamil... are marks, not
// letters: without them "साड़ियाँ" would fall apart), without stop words or
// duplicates, keeping order.
func keywords(s string) []string {
	var out []string
	seen := map[string]bool{}
	for w := range strings.FieldsFuncSeq(strings.ToLower(s), notKeywordRune) {
		if utf8.RuneCountInString(w) < minKeywordRunes || stopWords[w] || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// notKeywordRune reports whether r separates the words keywords reads.
func notKeywordRune(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
}

// inText tells which of the keywords kw (as keywords returns them) are
// words of s, reading s once and stopping when every one is found.
func inText(s string, kw []string) map[string]bool {
	in := make(map[string]bool, len(kw))
	for _, w := range kw {
		in[w] = false
	}
	left := len(kw)
	var buf [64]byte
	for w := range strings.FieldsFuncSeq(s, notKeywordRune) {
		lower := webpage.AppendLower(buf[:0], w) // a word of strings.ToLower(s), no copy of s
		if found, ok := in[string(lower)]; ok && !found {
			in[string(lower)] = true
			if left--; left == 0 {
				break
			}
		}
	}
	return in
}

func checkContentKeywords(p *page) Check {
	var title string
	if ts := p.tags["title"]; len(ts) > 0 {
		title = textOf(ts[0])
	}
	kw := keywords(title)
	if len(kw) == 0 {
		return defContentKeywords.fail(nil, "The title has no keywords to look for in the content.", "missing")
	}
	body := inText(p.text, kw)
	var found, missing []string
	for _, w := range kw {
		if body[w] {
			found = append(found, w)
		} else {
			missing = append(missing, w)
		}
	}
	value := map[string]any{"found": list(found), "missing": list(missing)}
	if 2*len(found) < len(kw) {
		return defContentKeywords.fail(value, fmt.Sprintf("Only %d of the title's %d keywords appear in the content.", len(found), len(kw)), "missing_keywords")
	}
	return defContentKeywords.pass(value, fmt.Sprintf("%d of the title's %d keywords appear in the content.", len(found), len(kw)))
}

func checkImageAlt(p *page) Check {
	var missing []string
	var o offenders
	for _, img := range p.tags["img"] {
		if _, ok := img.Attr("alt"); !ok {
			missing = append(missing, attr(img, "src"))
			o.addNode(img)
		}
	}
	if len(missing) > 0 {
		return defImageAlt.fail(list(missing), fmt.Sprintf("%d image(s) have no alt attribute.", len(missing)), "missing_alt").blame(o)
	}
	return defImageAlt.pass(list(nil), "Every image has an alt attribute.")
}

// unfriendlyURL reports whether a URL's path and query hold characters that
// make it hard to read: query parameters, underscores, escapes, commas,
// spaces.
func unfriendlyURL(u *url.URL) bool {
	return strings.ContainsAny(u.EscapedPath(), "_%, ") || u.RawQuery != "" || u.ForceQuery
}

func checkSEOFriendlyURL(p *page) Check {
	var bad []string
	seen := make(map[string]bool, len(p.tags["a"])+1)
	consider := func(u url.URL) {
		u.Fragment, u.RawFragment = "", ""
		s := u.String()
		if !seen[s] && unfriendlyURL(&u) {
			bad = append(bad, s)
		}
		seen[s] = true
	}
	if p.url.Host != "" {
		consider(*p.url)
	}
	for _, a := range p.tags["a"] {
		u, ok := p.resolve(attr(a, "href"))
		switch {
		case !ok || !p.sameSite(u.Hostname()):
		case u.Fragment == "" && u.RawFragment == "": // as consider would make it
			s := p.urlString(u)
			if !seen[s] && unfriendlyURL(u) {
				bad = append(bad, s)
			}
			seen[s] = true
		default:
			consider(*u) // a copy: resolve's URL is shared
		}
	}
	if len(bad) > 0 {
		return defSEOFriendlyURL.fail(list(bad), fmt.Sprintf("%d URL(s) of the site contain query strings, underscores or escaped characters.", len(bad)), "unfriendly")
	}
	return defSEOFriendlyURL.pass(list(nil), "The page's URL and its links to the site are SEO friendly.")
}

func checkNotFoundPage(p *page) Check {
	nf := p.f.NotFound
	if nf == nil {
		return defNotFoundPage.fail(nil, "A missing page could not be requested, so the 404 page is unknown.", "unreachable")
	}
	if nf.Status == 404 || nf.Status == 410 {
		return defNotFoundPage.pass(num(nf.Status), fmt.Sprintf("A missing page answers %d.", nf.Status))
	}
	return defNotFoundPage.fail(num(nf.Status), fmt.Sprintf("A missing page answers %d instead of 404.", nf.Status), "soft_404")
}

// robots is the parsed robots.txt, or false when there is none (parsed
// once per page: several checks read it).
func (p *page) robots() (robots.File, bool) {
	if p.site == nil {
		p.site = &siteRobots{}
		if r := p.f.Robots; r != nil && r.Status >= 200 && r.Status < 300 {
			p.site.file, p.site.ok = robots.Parse(r.Body), true
		}
	}
	return p.site.file, p.site.ok
}

func checkRobots(p *page) Check {
	rt, ok := p.robots()
	if !ok {
		return defRobots.pass(nil, "There is no robots.txt, so crawlers may index the page.")
	}
	path := p.url.RequestURI()
	if rule := rt.For("*").Disallowed(path); rule != "" {
		return defRobots.fail(rule, "robots.txt keeps crawlers from the page ("+rule+").", "disallowed")
	}
	return defRobots.pass(nil, "robots.txt lets crawlers index the page.")
}

// linkCounts counts the page's a[href] links to its own site (an
// unresolvable href among them) and to other sites.
func (p *page) linkCounts() (internal, external int) {
	for _, a := range p.tags["a"] {
		href, ok := a.Attr("href")
		if !ok {
			continue
		}
		if u, ok := p.resolve(href); ok && !p.sameSite(u.Hostname()) {
			external++
		} else {
			internal++
		}
	}
	return internal, external
}

func checkInPageLinks(p *page) Check {
	internal, external := p.linkCounts()
	value := map[string]any{"internal": num(internal), "external": num(external)}
	if total := internal + external; total > maxInPageLinks {
		return defInPageLinks.fail(value, fmt.Sprintf("The page has %d links; keep at most %d.", total, maxInPageLinks), "too_many")
	}
	return defInPageLinks.pass(value, fmt.Sprintf("The page has %d links.", internal+external))
}

func checkLanguage(p *page) Check {
	for _, h := range p.tags["html"] {
		if l := attr(h, "lang"); l != "" {
			if !langtag.Valid(l) {
				return defLanguage.fail(l, "The <html> lang attribute ("+l+") is not a valid BCP 47 language tag.", "invalid_code").
					blame(one(h))
			}
			return defLanguage.pass(l, "The page declares its language ("+l+").")
		}
	}
	return defLanguage.fail(nil, "The <html> element has no lang attribute.", "missing")
}

func checkFavicon(p *page) Check {
	for _, l := range p.links("icon") {
		if href := attr(l, "href"); href != "" {
			if u, ok := p.resolve(href); ok {
				href = u.String()
			}
			return defFavicon.pass(href, "The page declares a favicon.")
		}
	}
	return defFavicon.fail(nil, "The page declares no favicon (<link rel=\"icon\">).", "missing")
}
