package crawls

import (
	"context"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// PageFetcher fetches and audits one frontier URL as a run of c over sess
// does (fetchPage), with the site's robots.txt robots and 404 probe probe
// (either nil when absent). No store is read unless a redirect leads to
// another frontier URL.
func PageFetcher(cs *Crawls, c crawl.Crawl, sess ports.SiteSession, robots, probe *webpage.Response) func(ctx context.Context, fu ports.FrontierURL) ([]ports.FetchedPage, []ports.FrontierURL) {
	r := cs.newRun(c, "test")
	r.sess, r.robots, r.probe = sess, robots, probe
	r.site = pagecheck.NewSite(robots)
	return func(ctx context.Context, fu ports.FrontierURL) ([]ports.FetchedPage, []ports.FrontierURL) {
		pages, found, _ := r.fetchPage(ctx, fu)
		return pages, found
	}
}
