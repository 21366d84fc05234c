package crawl

import (
	"cmp"
	"slices"

	"github.com/pinsight/pinsight/domain/pagecheck"
)

// IssueType names a site-level issue; the names are part of the API.
type IssueType string

// The site-level issue types, in catalogue order.
const (
	BrokenLink            IssueType = "broken_link"
	RedirectChain         IssueType = "redirect_chain"
	RedirectLoop          IssueType = "redirect_loop"
	OrphanPage            IssueType = "orphan_page"
	DuplicateTitle        IssueType = "duplicate_title"
	DuplicateDescription  IssueType = "duplicate_description"
	DuplicateContent      IssueType = "duplicate_content"
	NoindexInSitemap      IssueType = "noindex_in_sitemap"
	NonCanonicalInSitemap IssueType = "non_canonical_in_sitemap"
	SitemapURLError       IssueType = "sitemap_url_error"
	BlockedByRobots       IssueType = "blocked_by_robots"
	DeepPage              IssueType = "deep_page"
	CanonicalTargetError  IssueType = "canonical_target_error"
	HreflangNoReturn      IssueType = "hreflang_no_return"
	// MissingHreflangForTranslation is a title shared by pages in
	// different languages with no hreflang link between them.
	MissingHreflangForTranslation IssueType = "missing_hreflang_for_translation"
	RobotsTxtInvalid              IssueType = "robots_txt_invalid"
)

// IssueDef describes one issue type. Severity uses the page checks'
// importances: high for what keeps pages out of search results or
// visitors from content, medium for what weakens how pages are indexed or
// ranked, low for what is worth tidying but harms little by itself.
type IssueDef struct {
	Type     IssueType
	Severity pagecheck.Importance
	Title    string
	// OnePer says what one issue of the type stands for: "page" (a page
	// the crawl reached), "url" (a URL, fetched or not), "broken target
	// url", "start url" (the first URL of a redirect chain) or "line" (a
	// line of robots.txt).
	OnePer string
	Advice string
	Why    string // why it matters, and so its severity
}

// Catalogue lists every issue type in catalogue order: the order of
// issue lists and counts.
var Catalogue = []IssueDef{
	{BrokenLink, pagecheck.High, "Broken internal link", "broken target url",
		"Fix the linked URL, or update the linking pages listed to point at a page that answers 200 (or remove the links).",
		"Visitors and crawlers following the link reach an error instead of content."},
	{RedirectChain, pagecheck.Medium, "Redirect chain", "start url",
		"Redirect straight to the final URL, and update links to point at it.",
		"Each hop costs a round trip, and crawlers give up on long chains."},
	{RedirectLoop, pagecheck.High, "Redirect loop", "start url",
		"Break the loop: make one of the URLs listed answer 200, or redirect the start URL to a page that does.",
		"The URL never leads to a page: browsers show an error and crawlers drop it."},
	{OrphanPage, pagecheck.Medium, "Orphan page", "page",
		"Link to the page from a related page or the navigation, or drop it from the sitemap if it is retired.",
		"Pages without internal links get little weight and are found only through the sitemap."},
	{DuplicateTitle, pagecheck.Medium, "Duplicate title", "page",
		"Give each indexable page a title of its own that names what sets it apart.",
		"Search engines struggle to choose between pages with the same title, and results look alike."},
	{DuplicateDescription, pagecheck.Low, "Duplicate meta description", "page",
		"Write a meta description of its own for each indexable page, or leave it out and let search engines pick a snippet.",
		"A shared description makes results look alike; search engines may replace it."},
	{DuplicateContent, pagecheck.Medium, "Duplicate content", "page",
		"Merge the pages, or declare the main one with rel=canonical on the others, or make each page's text its own.",
		"Search engines index one of a set of duplicates and split signals between them."},
	{NoindexInSitemap, pagecheck.Medium, "Noindex page in sitemap", "url",
		"Remove the URL from the sitemap, or remove the noindex if the page should be indexed.",
		"The sitemap asks for indexing that the page refuses: a contradiction crawlers report and waste time on."},
	{NonCanonicalInSitemap, pagecheck.Medium, "Non-canonical URL in sitemap", "url",
		"List the canonical URL in the sitemap instead of this one.",
		"Sitemaps should list only canonical URLs; others waste crawl budget and blur which URL to index."},
	{SitemapURLError, pagecheck.Medium, "Sitemap URL redirects or fails", "url",
		"List only URLs that answer 200 in the sitemap: replace redirected URLs by their targets and drop dead ones.",
		"Crawlers trust a sitemap less when its URLs redirect or fail."},
	{BlockedByRobots, pagecheck.Low, "Linked URL blocked by robots.txt", "url",
		"If the URL should be crawled, narrow the robots.txt rule; if not, consider removing or nofollowing the links.",
		"Crawlers cannot read the page, though it may still be indexed from links without its content; often intended."},
	{DeepPage, pagecheck.Low, "Page deep in the site", "page",
		"Link to the page from pages closer to the start page (the navigation, a hub page) so it is 3 clicks away or fewer.",
		"Pages many clicks from the home page are crawled less often and get less weight."},
	{CanonicalTargetError, pagecheck.High, "Canonical points at a redirect or error", "page",
		"Point rel=canonical at the final URL of a page that answers 200.",
		"Search engines ignore a canonical they cannot follow to a page, and may index the wrong URL or none."},
	{HreflangNoReturn, pagecheck.Medium, "Hreflang without return link", "page",
		"Make each alternate listed name this page in its own hreflang annotations too.",
		"Search engines ignore hreflang annotations that are not confirmed by the alternate page."},
	{MissingHreflangForTranslation, pagecheck.Low, "Translation without hreflang", "page",
		"Link the translations with hreflang annotations (each naming the others and itself), and give each its title in its own language.",
		"Without hreflang, search engines take pages in different languages sharing a title for duplicates and may show visitors the wrong language."},
	{RobotsTxtInvalid, pagecheck.Medium, "Invalid robots.txt line", "line",
		"Fix or remove the line: use only known directives, absolute sitemap URLs, and patterns starting with / or * under a User-agent line.",
		"Crawlers skip lines they cannot read, so the site may be crawled differently from what was meant."},
}

// catalogueIndex is each type's position in allIssues (Catalogue, then
// RenderedCatalogue).
var catalogueIndex = func() map[IssueType]int {
	m := make(map[IssueType]int, len(allIssues))
	for i, d := range allIssues {
		m[d.Type] = i
	}
	return m
}()

// Definition returns the catalogue entry of t (Catalogue's or
// RenderedCatalogue's).
func Definition(t IssueType) (IssueDef, bool) {
	i, ok := catalogueIndex[t]
	if !ok {
		return IssueDef{}, false
	}
	return allIssues[i], true
}

// ParseIssueType accepts an issue type by name (of Catalogue or
// RenderedCatalogue).
func ParseIssueType(s string) (IssueType, bool) {
	_, ok := catalogueIndex[IssueType(s)]
	return IssueType(s), ok
}

// SortIssueTypes sorts types in catalogue order, RenderedCatalogue's
// after Catalogue's (unknown types last).
func SortIssueTypes(types []IssueType) {
	slices.SortFunc(types, func(a, b IssueType) int {
		ia, oka := catalogueIndex[a]
		ib, okb := catalogueIndex[b]
		if !oka {
			ia = len(allIssues)
		}
		if !okb {
			ib = len(allIssues)
		}
		return cmp.Compare(ia, ib)
	})
}
