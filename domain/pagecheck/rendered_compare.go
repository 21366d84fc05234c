package pagecheck

import (
	"strconv"
	"strings"
)

// Thresholds of Rendering.ContentAddedByJS: the rendered DOM's visible
// words are at least ContentAddedRatio times the raw HTML's and at least
// ContentAddedWords more. (A shell of under 50 words rendered into 200 or
// more always qualifies.)
const (
	ContentAddedRatio = 2
	ContentAddedWords = 100
)

// FieldChange is one field of the page as the raw HTML and the rendered
// DOM give it. Field is one of title, meta_description, robots (the
// robots directives of the meta tags and X-Robots-Tag headers, as
// crawlers read them, comma-separated), noindex ("true" or "false"),
// canonical, hreflang, h1, words (visible words), internal_links,
// external_links (a[href] links, as in_page_links counts them), json_ld
// (JSON-LD blocks) and lang; a field of several values (hreflang, h1)
// joins them with " | ", a count is written in decimal. Raw and Rendered
// are cut to maxValueRunes like a check's strings; Changed compares them
// whole.
type FieldChange struct {
	Field    string `json:"field"`
	Raw      string `json:"raw"`
	Rendered string `json:"rendered"`
	Changed  bool   `json:"changed"`
}

// contentAddedByJS reports whether rendered visible words are much more
// than raw's (ContentAddedRatio, ContentAddedWords).
func contentAddedByJS(raw, rendered int) bool {
	return rendered >= ContentAddedRatio*raw && rendered-raw >= ContentAddedWords
}

// compare fills out's comparison of the raw and rendered pages.
func (rc *renderCtx) compare(out *Rendering) {
	a, b := rc.raw, rc.now
	field := func(name, raw, rendered string) bool {
		changed := raw != rendered
		out.Compare = append(out.Compare, FieldChange{name, cut(raw, maxValueRunes), cut(rendered, maxValueRunes), changed})
		return changed
	}
	count := strconv.Itoa
	out.TitleChanged = field("title", a.Title, b.Title)
	field("meta_description", a.Description, b.Description)
	field("robots", rc.rawRobots, rc.p.robotsText())
	out.RobotsChanged = field("noindex", strconv.FormatBool(a.Noindex), strconv.FormatBool(b.Noindex))
	out.CanonicalChanged = field("canonical", a.Canonical, b.Canonical)
	field("hreflang", strings.Join(a.Hreflang, " | "), strings.Join(b.Hreflang, " | "))
	field("h1", strings.Join(a.H1, " | "), strings.Join(b.H1, " | "))
	field("words", count(a.Words), count(b.Words))
	field("internal_links", count(a.InternalLinks), count(b.InternalLinks))
	field("external_links", count(a.ExternalLinks), count(b.ExternalLinks))
	field("json_ld", count(a.JSONLD), count(b.JSONLD))
	field("lang", a.Lang, b.Lang)
	out.ContentAddedByJS = contentAddedByJS(a.Words, b.Words)

	seen := make(map[string]bool, len(a.Links))
	for _, l := range a.Links {
		seen[l] = true
	}
	for _, l := range b.Links {
		if seen[l] {
			continue
		}
		seen[l] = true
		out.AddedLinksTotal++
		if len(out.AddedLinks) < maxValueItems {
			out.AddedLinks = append(out.AddedLinks, cut(l, maxValueRunes))
		}
	}
	out.LinksAddedByJS = out.AddedLinksTotal > 0
}

// robotsText is the page's robots directives as crawlers read them, in
// the order declared, comma-separated.
func (p *page) robotsText() string {
	ds := p.robotsDirectives().list
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.String()
	}
	return strings.Join(parts, ", ")
}
