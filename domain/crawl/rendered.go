package crawl

import (
	"slices"
	"strconv"
	"strings"

	"github.com/pinsight/pinsight/domain/pagecheck"
)

// The site-level issue types of rendered crawls (pages a browser rendered:
// pagecheck.AnalyseRendered), in catalogue order after Catalogue's. Their
// names are pagecheck.Rendering.Issues'.
const (
	ContentNeedsJS           IssueType = pagecheck.IssueContentNeedsJS
	RenderedCanonicalDiffers IssueType = pagecheck.IssueRenderedCanonicalDiffers
	RenderedNoindexDiffers   IssueType = pagecheck.IssueRenderedNoindexDiffers
	JSErrors                 IssueType = pagecheck.IssueJSErrors
	BlockedResources         IssueType = pagecheck.IssueBlockedResources
	SlowLCP                  IssueType = pagecheck.IssueSlowLCP
	LayoutShift              IssueType = pagecheck.IssueLayoutShift
)

// RenderedCatalogue lists the issue types only a rendered crawl finds, one
// per page each, in catalogue order after Catalogue's: Definition,
// ParseIssueType, SortIssueTypes and Counts know them. They are kept out
// of Catalogue, which lists what every crawl can find.
var RenderedCatalogue = []IssueDef{
	{ContentNeedsJS, pagecheck.Medium, "Content needs JavaScript", "page",
		"Render the page's main text and links on the server (server-side rendering or static generation), so they are in its HTML.",
		"Crawlers that do not run scripts see little of the page, and Google sees it only once it renders it, later."},
	{RenderedCanonicalDiffers, pagecheck.High, "Canonical changed by JavaScript", "page",
		"Declare the final canonical URL in the HTML and keep scripts from adding, removing or changing it.",
		"Search engines may act on the HTML's canonical or the rendered one: the page may be indexed under the wrong URL."},
	{RenderedNoindexDiffers, pagecheck.High, "Noindex changed by JavaScript", "page",
		"Decide in the HTML (or the X-Robots-Tag header) whether the page may be indexed, and keep scripts from adding or removing noindex.",
		"A search engine that sees noindex in the HTML may not render the page; one added by scripts drops a page that looked indexable."},
	{JSErrors, pagecheck.Low, "JavaScript errors", "page",
		"Fix the console errors and uncaught exceptions the page's audit lists.",
		"Code after an uncaught exception does not run: content or links it would add may be missing for visitors and crawlers."},
	{BlockedResources, pagecheck.Medium, "Resources blocked by robots.txt", "page",
		"Allow crawlers to fetch the scripts, styles and data the page needs: narrow the Disallow rule or add an Allow.",
		"Search engines render the page without the blocked resources and may see it broken or empty."},
	{SlowLCP, pagecheck.Medium, "Slow Largest Contentful Paint", "page",
		"Make the largest element of the first screen paint within 2.5 s: preload it, compress and size its image, answer the HTML faster.",
		"LCP is a Core Web Vital: a slow one is a worse experience and a weaker ranking signal."},
	{LayoutShift, pagecheck.Medium, "Layout shift", "page",
		"Reserve the space of images, embeds, ads and late content so the layout stays put (CLS 0.1 at most).",
		"CLS is a Core Web Vital: content that moves as the page loads makes visitors click the wrong thing."},
}

// allIssues is Catalogue then RenderedCatalogue: the order of issue lists
// and counts.
var allIssues = slices.Concat(Catalogue, RenderedCatalogue)

// RenderedIssueTypes are the rendered issue types a rendered page's
// Rendering shows (pagecheck.Rendering.Issues), in catalogue order; none
// for nil (a page that was not rendered).
func RenderedIssueTypes(r *pagecheck.Rendering) []IssueType {
	names := r.Issues()
	if len(names) == 0 {
		return nil
	}
	out := make([]IssueType, len(names))
	for i, n := range names {
		out[i] = IssueType(n)
	}
	return out
}

// PageRender is what a rendered crawl did with one audited page: whether
// a browser rendered it, why (or why not: pagecheck's reasons, as
// Rendering.Reason gives them) and the rendered issues it shows. The zero
// value is a page of a crawl that does not render.
type PageRender struct {
	Rendered bool
	Reason   string
	Issues   []PageIssue // RenderedIssues of its rendering
}

// PageIssue is an issue of one page that the page's own record carries
// (a rendered page's: RenderedIssues), listed by the Detector.
type PageIssue struct {
	Type   IssueType
	Detail string
}

// RenderOf is the PageRender of a page whose audit gave r (nil: the page
// was audited without a render decision).
func RenderOf(r *pagecheck.Rendering) PageRender {
	if r == nil {
		return PageRender{}
	}
	return PageRender{Rendered: r.Rendered, Reason: r.Reason, Issues: RenderedIssues(r)}
}

// RenderedIssues are the rendered issues r shows (RenderedIssueTypes),
// each with a detail saying what was measured; none for nil.
func RenderedIssues(r *pagecheck.Rendering) []PageIssue {
	types := RenderedIssueTypes(r)
	if len(types) == 0 {
		return nil
	}
	out := make([]PageIssue, len(types))
	for i, t := range types {
		out[i] = PageIssue{Type: t, Detail: renderedDetail(t, r)}
	}
	return out
}

// renderedDetail says what r measured behind an issue of type t.
func renderedDetail(t IssueType, r *pagecheck.Rendering) string {
	change := func(field string) (raw, rendered string) {
		for _, c := range r.Compare {
			if c.Field == field {
				return orNone(c.Raw), orNone(c.Rendered)
			}
		}
		return "none", "none"
	}
	switch t {
	case ContentNeedsJS:
		raw, now := change("words")
		s := "The HTML shows " + raw + " words, the rendered page " + now
		if r.AddedLinksTotal > 0 {
			s += "; JavaScript adds " + plural(r.AddedLinksTotal, "link")
		}
		return s + "."
	case RenderedCanonicalDiffers:
		raw, now := change("canonical")
		return "The HTML's canonical is " + raw + "; after JavaScript it is " + now + "."
	case RenderedNoindexDiffers:
		raw, now := change("noindex")
		return "noindex is " + raw + " in the HTML and " + now + " after JavaScript."
	case JSErrors:
		s := plural(r.Loaded.Errors, "console error") + " and " + plural(r.Loaded.Exceptions, "uncaught exception")
		if len(r.Loaded.Console) > 0 {
			s += "; the first: " + quoteLine(r.Loaded.Console[0].Text)
		}
		return s + "."
	case BlockedResources:
		s := plural(r.Loaded.BlockedTotal, "resource") + " of the page's origin disallowed by robots.txt"
		if len(r.Loaded.Blocked) > 0 {
			b := r.Loaded.Blocked[0]
			s += "; the first: " + b.URL + " (" + b.Rule + ")"
		}
		return s + "."
	case SlowLCP:
		s := "Largest Contentful Paint took " + strconv.FormatFloat(r.Lab.LCP.Value, 'f', 0, 64) + " ms (" + string(r.Lab.LCP.Grade) + ")"
		if r.Lab.LCPElement != "" {
			s += ": " + quoteLine(r.Lab.LCPElement)
		}
		return s + "."
	case LayoutShift:
		return "Cumulative Layout Shift is " + strconv.FormatFloat(r.Lab.CLS.Value, 'f', 2, 64) + " (" + string(r.Lab.CLS.Grade) + ")."
	}
	return ""
}

// orNone is s, or "none" when it is empty.
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// RenderCount is how many audited pages of a rendered crawl a browser
// rendered, or did not, for one reason.
type RenderCount struct {
	Rendered bool
	Reason   string
	Pages    int
}

// RenderTally counts a rendered crawl's audited pages by their
// PageRender's Rendered and Reason (Add each, then Counts).
type RenderTally map[RenderCount]int

// Add counts p (a page not audited by a rendered crawl, with no reason,
// is not counted).
func (t RenderTally) Add(p Page) {
	if p.Render.Reason == "" && !p.Render.Rendered {
		return
	}
	t[RenderCount{Rendered: p.Render.Rendered, Reason: p.Render.Reason}]++
}

// Counts lists the tally, rendered pages first, then by reason; none
// when nothing was counted.
func (t RenderTally) Counts() []RenderCount {
	var out []RenderCount
	for k, n := range t {
		k.Pages = n
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b RenderCount) int {
		if a.Rendered != b.Rendered {
			if a.Rendered {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Reason, b.Reason)
	})
	return out
}
