package crawls

import (
	"context"
	"errors"
	"net/url"
	"runtime"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/ports"
)

// urlLeaseFactor sets how long a claimed URL is leased: this many leases
// of the site, room for its fetch, redirects and follow-ups.
const urlLeaseFactor = 2

// claimedPerSlot is how many URLs a run keeps claimed per slot of the
// crawl's concurrency: a freed slot finds its next URL waiting while the
// run records and claims.
const claimedPerSlot = 16

// renderedPerSlot is claimedPerSlot for a crawl that renders: a render
// takes a second or so where a fetch takes milliseconds, and what is
// claimed at the slice's end is still rendered before the slice ends.
const renderedPerSlot = 2

// recordWait is how long a run waits for more fetched URLs to record them
// in one batch once one is done (it records sooner when recordPerSlot
// slots' worth are done, or nothing else is in flight).
const recordWait = 10 * time.Millisecond

// recordPerSlot bounds a batch of records: this many URLs per slot of the
// crawl's concurrency. Each batch costs a transaction (its crawl row read
// and written, its statements prepared, its commit), so fewer, larger
// batches cost a crawl less processor time (the URLs claimed, twice a
// batch, keep the fetchers busy meanwhile).
const recordPerSlot = 8

// recordFound bounds the URLs found that one batch of records adds: a
// batch is recorded once it holds this many (one page adds at most
// crawl.MaxLinksPerPage of each kind), so that each transaction stays
// well inside the store's statement timeout, and the run holds
// O(recordFound) URLs at once.
const recordFound = crawl.MaxLinksPerPage

// fetched is what one claimed URL gave: its records and the URLs it
// leads to (none when the run stopped while fetching it).
type fetched struct {
	pages []ports.FetchedPage
	found []ports.FrontierURL
}

// walk crawls the frontier until it is empty, ctx ends or end passes:
// URLs are claimed as they are needed (up to claimedPerSlot per slot of
// concurrency waiting or being fetched, claimed again once half are done,
// whether or not those are recorded yet; with a pause between requests,
// no more than it lets fetch before end, so that the slice ends on time), fetched (at most concurrency
// requests in flight) and recorded with the URLs they lead to as they are
// done, a batch at a time, while the others are being fetched. more is
// false when the frontier had nothing left to claim and nothing was in
// flight.
func (r *run) walk(ctx context.Context, end time.Time) (more bool, err error) {
	slots := r.c.Settings.Concurrency
	want := claimedPerSlot * slots
	if r.c.Settings.Renders() {
		want = renderedPerSlot * slots
	}
	done := make(chan fetched, want) // never full: at most want claimed and not taken
	// Workers fetch and audit the claimed URLs: enough that the slots stay
	// busy while pages are audited, and no more, so that the run's own
	// goroutine (recording and claiming) does not queue behind dozens of
	// audits for the processor.
	queue := make(chan ports.FrontierURL, want)
	for range slots + runtime.GOMAXPROCS(0) {
		go func() {
			for fu := range queue {
				pages, found, _ := r.fetchPage(ctx, fu)
				done <- fetched{pages: pages, found: found}
			}
		}()
	}
	// out counts the claimed URLs not back on done.
	out, drained := 0, false
	defer func() { // what is still in flight ends (a stopped run's, or after an error)
		close(queue)
		for ; out > 0; out-- {
			<-done
		}
	}()
	// What a stopped run fetched is kept: recorded under the caller's
	// context, which outlives the slice's.
	rec := context.WithoutCancel(ctx)
	var b batch
	var wait <-chan time.Time // set while the batch waits for a few slots' worth
	for {
		claiming := ctx.Err() == nil && r.cs.clock().Before(end)
		n := want - out
		if p := r.gate.current(); p > 0 { // no more than the pause lets fetch by end: the slice ends on time
			n = min(n, int(end.Sub(r.cs.clock())/p)+1-out)
		}
		if claiming && !drained && out <= want/2 && n > 0 {
			now := r.cs.clock()
			urls, err := r.cs.store.ClaimURLs(ctx, r.c.ID, n, now, now.Add(urlLeaseFactor*r.cs.cfg.Lease))
			if err != nil {
				return true, err
			}
			drained = len(urls) == 0
			for _, fu := range urls {
				if r.blocked(fu.URL) {
					b.add(fetched{pages: []ports.FetchedPage{{Page: crawl.Page{URL: fu.URL, FinalURL: fu.URL, Depth: fu.Depth, BlockedByRobots: true}, FetchedAt: now}}})
					continue
				}
				out++
				queue <- fu
			}
		}
		if out == 0 && b.n == 0 {
			return !drained, nil
		}
		// Record what is done once a few slots' worth is, or it has waited
		// recordWait, or nothing else will come; meanwhile take what is done.
		if b.n < recordPerSlot*slots && len(b.found) < recordFound && out > 0 {
			if b.n > 0 && wait == nil {
				wait = time.After(recordWait)
			}
			select {
			case f := <-done:
				out--
				b.add(f)
				continue
			case <-wait:
			}
		}
		if err := r.record(rec, b.pages, b.found); err != nil {
			return true, err
		}
		b, wait = batch{}, nil
		drained = false // the records may free deeper URLs
	}
}

// batch is what fetched URLs gave that waits to be recorded.
type batch struct {
	n     int // fetched URLs in it
	pages []ports.FetchedPage
	found []ports.FrontierURL
}

func (b *batch) add(f fetched) {
	b.n++
	b.pages, b.found = append(b.pages, f.pages...), append(b.found, f.found...)
}

// record adds the URLs found to the frontier and records the pages, in
// one transaction. When that fails and the pages had links, the pages
// are recorded first without them (so that they are never fetched again
// because their links could not be stored), then again with them; links
// that fail a second time are lost (logged), the crawl goes on.
func (r *run) record(ctx context.Context, pages []ports.FetchedPage, found []ports.FrontierURL) error {
	found = r.unsent(found)
	if len(found) == 0 && len(pages) == 0 {
		return nil
	}
	err := r.cs.store.RecordPages(ctx, r.c.ID, found, pages)
	if err == nil || errors.Is(err, crawl.ErrNotFound) || len(pages) == 0 || !hasLinks(pages, found) {
		return err
	}
	bare := make([]ports.FetchedPage, len(pages))
	for i, p := range pages {
		p.Page.Outlinks, p.LinksNotRead = nil, 0
		bare[i] = p
	}
	if err := r.cs.store.RecordPages(ctx, r.c.ID, nil, bare); err != nil {
		return err
	}
	if err2 := r.cs.store.RecordPages(ctx, r.c.ID, found, pages); err2 != nil {
		r.cs.cfg.Log.Warn("crawls: pages recorded without their links", "crawl", r.c.ID, "pages", len(pages), "found", len(found), "err", errors.Join(err, err2))
		for _, u := range found { // not sent after all: another page's link may send them
			delete(r.added, u.URL)
		}
	}
	return nil
}

// hasLinks reports whether pages link anywhere or found holds a URL.
func hasLinks(pages []ports.FetchedPage, found []ports.FrontierURL) bool {
	if len(found) > 0 {
		return true
	}
	for _, p := range pages {
		if len(p.Page.Outlinks) > 0 {
			return true
		}
	}
	return false
}

// unsent is found without the URLs the run has added already with the
// same or a smaller depth (the frontier keeps the smaller), which it then
// remembers: pages link to the same URLs again and again.
func (r *run) unsent(found []ports.FrontierURL) []ports.FrontierURL {
	out := found[:0]
	for _, u := range found {
		d, ok := r.added[u.URL]
		if ok && !u.InSitemap && crawl.CompareDepth(d, u.Depth) <= 0 {
			continue
		}
		if !ok || crawl.CompareDepth(u.Depth, d) < 0 {
			r.added[u.URL] = u.Depth
		}
		out = append(out, u)
	}
	return out
}

// blocked reports whether robots.txt keeps the crawler from u (the start
// URL included: a crawl of a disallowed site records it blocked).
func (r *run) blocked(u string) bool {
	p, err := url.Parse(u)
	return err == nil && !r.group.Allowed(p.RequestURI())
}
