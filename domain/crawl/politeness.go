package crawl

import (
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
