package crawls

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/net/publicsuffix"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/robots"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// Run is the worker of crawl jobs (a ports.CrawlWorker). A user with
// another crawl running gives the worker up for a while when another
// user's crawl could start (crawl.Share.Yields). Else it holds the
// crawl's site, its politeness unit (one running crawl per unit: while
// another holds it, the job snoozes SiteRetry), then crawls for one slice: robots.txt for the crawler's
// user agent, the start URL and sitemaps until the crawl is seeded (the
// sitemaps read while the walk begins),
// then the URLs of the durable frontier, claimed as slots free up, at
// most the crawl's concurrency of requests in flight. It renews its hold
// and reads cancels every Renew. When the frontier is empty, or the crawl is
// cancelled, it finds the site-level issues and finishes the crawl; else
// the job snoozes and the next run goes on, after giving the site or the
// worker to another user's crawl waiting for it (endSlice). A run whose
// crawl's cancel is requested when it claims the site finishes it
// cancelled at once; one that fails gives its hold up before its job
// waits to retry (leave). A run killed midway leaves its
// hold and its URLs' leases to expire: the job's next run (here or in
// another process) takes them over.
func (cs *Crawls) Run(ctx context.Context, job ports.CrawlJob) error {
	cs.running.Add(1)
	defer cs.running.Add(-1)
	holder := cs.process + "/" + strconv.FormatInt(job.ID, 10)
	now := cs.clock()
	if sh, err := cs.store.Share(ctx, job.CrawlID, now); err == nil && sh.Yields() {
		return &ports.SnoozeError{After: crawl.YieldWait, Err: errors.New("crawls: the worker goes to another user's crawl first")}
	}
	c, ok, err := cs.store.ClaimSite(ctx, job.CrawlID, holder, now, now.Add(cs.cfg.Lease))
	switch {
	case errors.Is(err, crawl.ErrNotFound):
		return nil // deleted
	case err != nil:
		return &ports.RetryError{Err: err}
	case !ok && c.Status.Final():
		cs.returnUnused(ctx, c) // once per crawl: this is again after a crash or a cancel while queued
		return nil
	case !ok:
		return &ports.SnoozeError{After: cs.cfg.SiteRetry, Err: errors.New("crawls: another crawl holds the site " + c.Politeness)}
	}
	r := cs.newRun(c, holder)
	if c.CancelRequested { // asked for while no run read it (its job waited): the cancel wins before any fetch
		return r.leave(ctx, r.finish(ctx, crawl.StatusCancelled))
	}
	return r.leave(ctx, r.slice(ctx))
}

// leave passes err on; when it asks for a retry, the run's hold ends
// first: while the job waits for its backoff (minutes after a few
// attempts) the site is free for other crawls, and a cancel ends the
// crawl at once (CancelCrawl of a crawl no run holds).
func (r *run) leave(ctx context.Context, err error) error {
	var retry *ports.RetryError
	if errors.As(err, &retry) {
		_, _ = r.cs.store.RenewSite(context.WithoutCancel(ctx), r.c.ID, r.holder, r.cs.clock())
	}
	return err
}

// run is one slice of a crawl's run.
type run struct {
	cs      *Crawls
	c       crawl.Crawl
	holder  string
	scope   crawl.Scope
	sess    ports.SiteSession
	sem     chan struct{} // requests in flight
	renders chan struct{} // renders in flight: at most the crawl's concurrency
	gate    *gate         // the pause between requests
	robots  *webpage.Response
	site    *pagecheck.Site // robots parsed once for the pages' audits
	group   robots.Group
	probe   *webpage.Response
	stopped atomic.Pointer[error] // why the slice stopped early: errCancelled or the renewal's
	added   map[string]int        // the URLs the slice sent to the frontier, by the smallest depth sent (unsent)
}

// errCancelled stops a run whose crawl's cancel was requested.
var errCancelled = errors.New("crawls: the crawl was cancelled")

// registrable is the registrable domain of u's host (the public suffix
// list's eTLD+1), "" when it has none: the site of a crawl of u with
// subdomains (crawl.Settings.Scope).
func registrable(u string) string {
	reg := ""
	if h := hostOf(u); h != "" {
		reg, _ = publicsuffix.EffectiveTLDPlusOne(h)
	}
	return reg
}

// politeness is the politeness unit of a crawl of s (crawl.Crawl.Politeness).
func politeness(s crawl.Settings) string { return s.Politeness(registrable(s.URL)) }

func (cs *Crawls) newRun(c crawl.Crawl, holder string) *run {
	return &run{cs: cs, c: c, holder: holder, scope: c.Settings.Scope(registrable(c.Settings.URL)),
		sem: make(chan struct{}, c.Settings.Concurrency), renders: make(chan struct{}, c.Settings.Concurrency), gate: newGate(c.Settings.Delay), added: map[string]int{}}
}

// slice crawls until the frontier is empty (then finishes the crawl), the
// slice's time is up (then snoozes), the crawl is cancelled (then finishes
// it cancelled) or the hold is lost (then ends: another run has it).
func (r *run) slice(ctx context.Context) error {
	cs := r.cs
	end := cs.clock().Add(cs.cfg.Slice)
	if d, ok := ctx.Deadline(); ok {
		end = minTime(end, d.Add(-5*time.Second))
	}
	work, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	wg.Go(func() { r.renew(work, stop) })
	defer wg.Wait()
	defer stop()

	r.sess = cs.fetcher.Session()
	defer r.sess.Close()
	// The sitemaps are read while the walk goes on (seeding, until its
	// end is taken); the reading ends before the session closes and before
	// the crawl is finished.
	var seeding <-chan error
	waitSeeding := func() error { // the seeding's error, once; nil after
		if seeding == nil {
			return nil
		}
		err := <-seeding
		seeding = nil
		return err
	}
	endSeeding := func() { stop(); _ = waitSeeding() }
	defer endSeeding()
	r.readRobots(work) // paced by the crawl's own delay
	r.site = pagecheck.NewSite(r.robots)
	r.gate.setPause(r.c.Settings.Pause(r.group))
	seeding, err := r.startSeed(work)
	if err != nil && work.Err() == nil {
		return &ports.RetryError{Err: err}
	}
	r.probe = r.fetchProbe(work)
	for work.Err() == nil && cs.clock().Before(end) {
		more, err := r.walk(work, end)
		if err != nil && work.Err() == nil {
			return &ports.RetryError{Err: err}
		}
		if more || work.Err() != nil {
			continue
		}
		if seeding != nil { // the sitemaps may add URLs: the walk goes on once they are in
			if err := waitSeeding(); err != nil && work.Err() == nil {
				return &ports.RetryError{Err: err}
			}
			continue
		}
		done, cancelled, err := r.exhausted(work)
		if err != nil && work.Err() == nil {
			return &ports.RetryError{Err: err}
		}
		if done {
			endSeeding()
			wg.Wait()
			if cancelled { // asked for before the renewal read it: the user's cancel wins
				return r.finish(ctx, crawl.StatusCancelled)
			}
			return r.finish(ctx, crawl.StatusFinished)
		}
		// URLs leased by a run that died wait for their leases to expire.
		sleep(work, cs.cfg.Renew)
	}
	if work.Err() == nil {
		_ = waitSeeding() // a slice that ran out of time ends with its sitemaps read (the next run seeds again if they failed)
	}
	endSeeding()
	wg.Wait()
	if why := r.stopped.Load(); why != nil {
		if errors.Is(*why, errCancelled) {
			return r.finish(ctx, crawl.StatusCancelled)
		}
		return nil // the hold was lost (deleted, or another run has it): that run goes on
	}
	if ctx.Err() != nil {
		return ctx.Err() // the queue is stopping: the job runs again once found stuck
	}
	return r.endSlice(ctx)
}

// endSlice ends a slice that ran out of time with the job's snooze: at
// once, or, when another user's crawl waits for the site or (this
// process's workers all busy) for a worker (crawl.Share), after the site
// is given up, handed to the crawl waiting for it longest: the crawls
// take turns.
func (r *run) endSlice(ctx context.Context) error {
	cs := r.cs
	now := cs.clock()
	goOn := &ports.SnoozeError{After: 0, Err: errors.New("crawls: slice over, the crawl goes on")}
	sh, err := cs.store.Share(ctx, r.c.ID, now)
	if err != nil || !sh.GivesSite() && !sh.GivesWorker(int(cs.running.Load()) >= cs.cfg.Workers) {
		return goOn
	}
	handed, err := cs.store.YieldSite(ctx, r.c.ID, r.holder, now, now.Add(cs.cfg.Lease))
	switch {
	case err != nil: // the hold was lost (the next run finds out) or the store failed
		return goOn
	case handed:
		return &ports.SnoozeError{After: cs.cfg.SiteRetry, Err: errors.New("crawls: slice over, the site goes to another user's crawl in turn")}
	}
	return &ports.SnoozeError{After: crawl.YieldWait, Err: errors.New("crawls: slice over, the worker goes to another user's crawl")}
}

// exhausted reports whether nothing is left to crawl once no URL could
// be claimed: every URL found was recorded, or the crawl recorded its
// max_pages. Otherwise URLs are leased to a run that died. cancelled
// tells that the crawl's cancel was requested meanwhile.
func (r *run) exhausted(ctx context.Context) (done, cancelled bool, err error) {
	c, err := r.cs.store.CrawlByID(ctx, r.c.ID)
	if err != nil {
		return false, false, err
	}
	p := c.Progress
	return p.Crawled+p.Blocked >= p.Discovered || p.Crawled >= c.Settings.MaxPages, c.CancelRequested, nil
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// renew extends the hold every Renew until work ends, and stops work when
// the crawl is cancelled or the hold is lost.
func (r *run) renew(work context.Context, stop context.CancelFunc) {
	t := time.NewTicker(r.cs.cfg.Renew)
	defer t.Stop()
	for {
		select {
		case <-work.Done():
			return
		case <-t.C:
		}
		cancelled, err := r.cs.store.RenewSite(work, r.c.ID, r.holder, r.cs.clock().Add(r.cs.cfg.Lease))
		switch {
		case err != nil && work.Err() == nil && (errors.Is(err, crawl.ErrLeaseLost) || errors.Is(err, crawl.ErrNotFound)):
			r.stopped.Store(&err)
			stop()
			return
		case err == nil && cancelled:
			why := errCancelled
			r.stopped.Store(&why)
			stop()
			return
		}
	}
}

// gate spaces requests by a pause (none when zero).
type gate struct {
	mu    sync.Mutex
	pause time.Duration
	next  time.Time
}

func newGate(pause time.Duration) *gate { return &gate{pause: pause} }

// current is the pause.
func (g *gate) current() time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.pause
}

// setPause changes the pause (to robots.txt's Crawl-delay, once read).
func (g *gate) setPause(pause time.Duration) {
	g.mu.Lock()
	g.pause = pause
	g.mu.Unlock()
}

// wait waits for the next request's turn.
func (g *gate) wait(ctx context.Context) error {
	g.mu.Lock()
	if g.pause <= 0 {
		g.mu.Unlock()
		return ctx.Err()
	}
	now := time.Now()
	at := maxTime(now, g.next)
	g.next = at.Add(g.pause)
	g.mu.Unlock()
	if d := at.Sub(now); d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	return nil
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
