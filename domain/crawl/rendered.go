package crawl

import (
	"slices"

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
// of Catalogue, which lists what every crawl can find, until crawls render.
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
