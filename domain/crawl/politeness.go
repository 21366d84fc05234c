package crawl

import (
	"net/url"
	"time"

	"github.com/pinsight/pinsight/domain/robots"
)

// Pause is the pause a crawl makes between two requests to the site: the
// larger of the crawl's own Delay and the Crawl-delay of the robots.txt
// group for the crawler (g, from robots.File.For with the crawler's user
// agent); none when neither asks for one.
func (s Settings) Pause(g robots.Group) time.Duration {
	if g.HasCrawlDelay {
		return max(s.Delay, g.CrawlDelay)
	}
	return s.Delay
}

// Politeness is the politeness unit of a crawl of these settings (stored
// as Crawl.Politeness): what one running crawl at a time holds, across
// all users, so that the crawls of one server never add up. It is the
// start URL's origin as browsers and crawlers count it: scheme, host and
// port, a scheme's default port left out as Normalize leaves it out
// ("https://www.example.com", "http://127.0.0.1:8080"); so two ports, or
// two hosts, of one machine are two units. With Subdomains, which crawls
// every host of the site, it is "*." and the site of Scope(registrable)
// (the registrable domain, "*.example.com" for www.shop.example.com).
func (s Settings) Politeness(registrable string) string {
	if s.Subdomains {
		return "*." + s.Scope(registrable).site
	}
	u, err := url.Parse(s.URL) // normalised: parses
	if err != nil {
		return s.URL
	}
	return u.Scheme + "://" + u.Host
}
