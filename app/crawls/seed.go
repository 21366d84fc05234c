package crawls

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/xml"
	"io"
	"net/url"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/robots"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// Bounds of what a crawl reads of robots.txt and sitemaps.
const (
	robotsMaxBytes  = 512 << 10
	sitemapMaxBytes = 10 << 20 // decoded, per sitemap (gzip included)
	maxSitemaps     = 50       // sitemaps read, indexes included
	probeMaxBytes   = 64 << 10
)

// origin is the scheme and host of the start URL.
func (r *run) origin() *url.URL {
	u, _ := url.Parse(r.c.Settings.URL) // normalised: parses
	return &url.URL{Scheme: u.Scheme, Host: u.Host}
}

// readRobots fetches robots.txt (following redirects on the site) and
// picks the group for the crawler's user agent; none (everything allowed)
// when it answers no 2xx.
func (r *run) readRobots(ctx context.Context) {
	last, _, _, err := r.follow(ctx, r.origin().JoinPath("robots.txt").String(), robotsMaxBytes)
	if err != nil || last == nil {
		return
	}
	r.robots = last.Response
	if s := last.Response.Status; s >= 200 && s < 300 {
		r.group = robots.Parse(last.Response.Body).For(r.cs.cfg.UserAgent)
	}
}

// robotsFile is the parsed robots.txt and whether it answered 2xx.
func (r *run) robotsFile() (robots.File, bool) {
	if r.robots == nil || r.robots.Status < 200 || r.robots.Status >= 300 {
		return robots.File{}, false
	}
	return robots.Parse(r.robots.Body), true
}

// fetchProbe requests a random path of the site, for the audit's 404
// check; nil when it does not answer.
func (r *run) fetchProbe(ctx context.Context) *webpage.Response {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	l, err := r.get(ctx, r.origin().JoinPath("pinsight-404-probe-"+hex.EncodeToString(b)).String(), probeMaxBytes)
	if err != nil {
		return nil
	}
	return l.Response
}

// startSeed seeds a crawl that is not (crawl.Crawl.Seeded): it adds the
// start URL (depth 0), then reads the sitemaps (seedSitemaps) in the
// background while the walk begins. The channel gives the seeding's end,
// its last act (nil once the crawl is marked seeded); none for a seeded
// crawl.
func (r *run) startSeed(ctx context.Context) (<-chan error, error) {
	if r.c.Seeded {
		return nil, nil
	}
	if _, err := r.cs.store.AddURLs(ctx, r.c.ID, []ports.FrontierURL{{URL: r.c.Settings.URL, Depth: 0, Source: "start"}}); err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() {
		err := r.seedSitemaps(ctx)
		if err == nil {
			err = ctx.Err() // stopped midway: the next run seeds again
		}
		if err == nil {
			err = r.cs.store.MarkSeeded(ctx, r.c.ID)
		}
		done <- err
	}()
	return done, nil
}

// seedSitemaps adds the URLs of the site's sitemaps (robots.txt's Sitemap
// lines, then /sitemap.xml; indexes followed, gzip read) that the crawl
// follows. Adding them again (after a run stopped midway) changes nothing
// but the URLs that were missing.
func (r *run) seedSitemaps(ctx context.Context) error {
	var queue []string
	if f, ok := r.robotsFile(); ok {
		queue = append(queue, f.Sitemaps...)
	}
	queue = append(queue, r.origin().JoinPath("sitemap.xml").String())
	seen := map[string]bool{}
	budget := 2 * r.c.Settings.MaxPages // sitemap URLs kept: more cannot be crawled
	for len(queue) > 0 && len(seen) < maxSitemaps && budget > 0 && ctx.Err() == nil {
		sm, err := crawl.Normalize(queue[0])
		queue = queue[1:]
		if err != nil || seen[sm] || !r.scope.OnSite(sm) {
			continue
		}
		seen[sm] = true
		locs, index := r.readSitemap(ctx, sm)
		if index {
			queue = append(queue, locs...)
			continue
		}
		var urls []ports.FrontierURL
		for _, l := range locs {
			if u, err := crawl.Normalize(l); err == nil && r.scope.Follows(u) && budget > 0 {
				urls = append(urls, ports.FrontierURL{URL: u, Depth: crawl.NoDepth, InSitemap: true, Source: "sitemap"})
				budget--
			}
		}
		if len(urls) > 0 {
			if _, err := r.cs.store.AddURLs(ctx, r.c.ID, urls); err != nil {
				return err
			}
		}
	}
	return nil
}

// sitemapXML is a urlset or a sitemapindex: both list <loc>s.
type sitemapXML struct {
	XMLName  xml.Name
	URLs     []string `xml:"url>loc"`
	Sitemaps []string `xml:"sitemap>loc"`
}

// readSitemap fetches and parses one sitemap: its page URLs, or, for an
// index, its sitemaps' URLs (index true). None when it does not answer 2xx
// or does not parse.
func (r *run) readSitemap(ctx context.Context, u string) (locs []string, index bool) {
	last, _, _, err := r.follow(ctx, u, sitemapMaxBytes)
	if err != nil || last == nil || last.Response.Status < 200 || last.Response.Status >= 300 {
		return nil, false
	}
	body := last.Response.Body
	if len(body) > 2 && body[0] == 0x1f && body[1] == 0x8b { // a .xml.gz served as is
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, false
		}
		if body, err = io.ReadAll(io.LimitReader(zr, sitemapMaxBytes)); err != nil {
			return nil, false
		}
	}
	var sm sitemapXML
	if err := xml.Unmarshal(body, &sm); err != nil {
		return nil, false
	}
	if sm.XMLName.Local == "sitemapindex" {
		return sm.Sitemaps, true
	}
	return sm.URLs, false
}
