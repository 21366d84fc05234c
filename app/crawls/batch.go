package crawls

import (
	"context"
	"net/url"
	"sync"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/ports"
)

// urlLeaseFactor sets how long a claimed URL is leased: this many leases
// of the site, room for its fetch, redirects and follow-ups.
const urlLeaseFactor = 2

// batch claims up to four URLs per slot of concurrency from the frontier,
// fetches them (at most concurrency requests in flight), and records them
// with the URLs they lead to. more is false when the frontier had nothing
// left to claim.
func (r *run) batch(ctx context.Context) (more bool, err error) {
	now := r.cs.clock()
	urls, err := r.cs.store.ClaimURLs(ctx, r.c.ID, 4*r.c.Settings.Concurrency, now, now.Add(urlLeaseFactor*r.cs.cfg.Lease))
	if err != nil || len(urls) == 0 {
		return false, err
	}
	var (
		mu    sync.Mutex
		pages []ports.FetchedPage
		found []ports.FrontierURL
		wg    sync.WaitGroup
	)
	for _, fu := range urls {
		if r.blocked(fu.URL) {
			mu.Lock()
			pages = append(pages, ports.FetchedPage{Page: crawl.Page{URL: fu.URL, FinalURL: fu.URL, Depth: fu.Depth, BlockedByRobots: true}, FetchedAt: now})
			mu.Unlock()
			continue
		}
		wg.Go(func() {
			fps, more, ok := r.fetchPage(ctx, fu)
			if !ok {
				return
			}
			mu.Lock()
			pages = append(pages, fps...)
			found = append(found, more...)
			mu.Unlock()
		})
	}
	wg.Wait()
	// What a stopped run fetched is kept: recorded under the caller's
	// context, which outlives the slice's.
	rec := context.WithoutCancel(ctx)
	if len(found) > 0 {
		if _, err := r.cs.store.AddURLs(rec, r.c.ID, found); err != nil {
			return true, err
		}
	}
	if len(pages) > 0 {
		if err := r.cs.store.RecordPages(rec, r.c.ID, pages); err != nil {
			return true, err
		}
	}
	return true, nil
}

// blocked reports whether robots.txt keeps the crawler from u (the start
// URL included: a crawl of a disallowed site records it blocked).
func (r *run) blocked(u string) bool {
	p, err := url.Parse(u)
	return err == nil && !r.group.Allowed(p.RequestURI())
}
