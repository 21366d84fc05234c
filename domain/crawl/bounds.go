package crawl

// Bounds of what one crawl keeps of what it finds, whatever the site
// serves (a page of 190,000 links, a sitemap of millions).
const (
	// FrontierPerPage is how many URLs a crawl keeps in its frontier per
	// page it may fetch (Settings.FrontierCap). URLs found once the
	// frontier is full are not queued, only counted
	// (Progress.NotQueued): a URL found later does not displace one
	// queued before, even a deeper one (claims go shallowest first, so
	// the frontier fills with the shallowest levels found first).
	FrontierPerPage = 10
	// MaxLinksPerPage is how many distinct on-site links (a[href] and
	// rel=next/prev; hreflang links apart, with the same cap) a crawl
	// reads of one page: the page's outlinks and the URLs it leads to.
	// The links after them are not read, only counted
	// (Progress.LinksNotRead).
	MaxLinksPerPage = 5_000
)

// FrontierCap is how many URLs the crawl's frontier may hold, crawled
// or waiting: FrontierPerPage times MaxPages.
func (s Settings) FrontierCap() int { return FrontierPerPage * s.MaxPages }
