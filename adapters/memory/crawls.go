package memory

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// CrawlStore keeps crawls, their frontiers, pages, links and issues in
// memory. Its Idempotency-Key records are its ReportStore's.
type CrawlStore struct {
	mu      sync.RWMutex
	reports *ReportStore
	lastID  int64 // of crawls
	lastURL int64 // of frontier rows, across crawls
	crawls  map[int64]*crawlData
	sites   map[string]siteHold
	// dropJob forgets a deleted crawl's waiting job (Jobs.Crawls); nil
	// without a queue.
	dropJob func(id int64)
}

// siteHold is the crawl holding a site (its politeness unit), until its
// lease expires; holder is "" while the site is handed to the crawl
// (YieldSite) and none of its runs has claimed it yet.
type siteHold struct {
	crawlID int64
	holder  string
	until   time.Time
}

// crawlData is one crawl and everything found by it.
type crawlData struct {
	c      crawl.Crawl
	byURL  map[string]*frontierRow
	rows   []*frontierRow // in ID order
	issues []crawl.Issue
}

// frontierRow is a URL of a crawl: waiting, leased or recorded.
type frontierRow struct {
	id         int64
	url        ports.FrontierURL
	leaseUntil time.Time // zero when never leased
	recorded   bool
	page       ports.CrawlPage // when recorded; Results nil (kept as JSON in results)
	results    []byte
	failing    []string // Results.Failing
}

// NewCrawlStore returns an empty crawl store whose Idempotency-Key records
// are reports'.
func NewCrawlStore(reports *ReportStore) *CrawlStore {
	return &CrawlStore{reports: reports, crawls: map[int64]*crawlData{}, sites: map[string]siteHold{}}
}

// cloneCrawl is c with its own slices.
func cloneCrawl(c crawl.Crawl) crawl.Crawl {
	c.Settings.Include = slices.Clone(c.Settings.Include)
	c.Settings.Exclude = slices.Clone(c.Settings.Exclude)
	c.Settings.Headers = slices.Clone(c.Settings.Headers)
	c.Summary.Issues = slices.Clone(c.Summary.Issues)
	c.Summary.Checks = slices.Clone(c.Summary.Checks)
	c.Summary.AI = slices.Clone(c.Summary.AI)
	c.Summary.LLMsTxt.Findings = slices.Clone(c.Summary.LLMsTxt.Findings)
	return c
}

// CreateCrawl implements ports.CrawlStore.
func (s *CrawlStore) CreateCrawl(_ context.Context, c crawl.Crawl, limit int, idem *report.Idempotency) (crawl.Crawl, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var src *crawlData
	if c.ScheduledFrom != 0 {
		if src = s.dueLocked(c.UserID, c.ScheduledFrom, c.CreatedAt); src == nil {
			return crawl.Crawl{}, crawl.ErrNotDue
		}
	}
	if limit > 0 {
		active := 0
		for _, d := range s.crawls {
			if d.c.UserID == c.UserID && !d.c.Status.Final() {
				active++
			}
		}
		if active >= limit {
			return crawl.Crawl{}, crawl.ErrActiveLimit
		}
	}
	c = cloneCrawl(c)
	c.ID, c.Token, c.Status, c.Failure, c.CancelRequested, c.Seeded = s.lastID+1, report.NewShareToken(), crawl.StatusQueued, "", false, false
	c.Progress, c.Score, c.Rating, c.Summary = crawl.Progress{}, 0, "", crawl.Summary{}
	c.Settings.Password = ""
	c.CreatedAt, c.StartedAt, c.FinishedAt = micro(c.CreatedAt), time.Time{}, time.Time{}
	c.NextRunAt, c.QuotaUntil, c.RenderQuotaUntil = micro(crawl.NextRun(c.Settings.Schedule, c.CreatedAt)), micro(c.QuotaUntil), micro(c.RenderQuotaUntil)
	c.WaitingSince, c.Politeness = c.CreatedAt, cmp.Or(c.Politeness, c.Settings.Politeness(""))
	err := s.reports.finishClaim(idem, func() ([]int64, error) {
		s.crawls[c.ID] = &crawlData{c: c, byURL: map[string]*frontierRow{}}
		s.lastID = c.ID
		if src != nil {
			src.c.NextRunAt = micro(crawl.NextRun(src.c.Settings.Schedule, c.CreatedAt))
		}
		return []int64{c.ID}, nil
	})
	if err != nil {
		return crawl.Crawl{}, err
	}
	return cloneCrawl(c), nil
}

// micro is t in UTC to the microsecond, as databases keep it.
func micro(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// owned returns the user's crawl id; the caller holds the lock.
func (s *CrawlStore) owned(userID, id int64) (*crawlData, error) {
	d, ok := s.crawls[id]
	if !ok || d.c.UserID != userID {
		return nil, crawl.ErrNotFound
	}
	return d, nil
}

// byID returns crawl id; the caller holds the lock.
func (s *CrawlStore) byID(id int64) (*crawlData, error) {
	d, ok := s.crawls[id]
	if !ok {
		return nil, crawl.ErrNotFound
	}
	return d, nil
}

// Crawl implements ports.CrawlStore.
func (s *CrawlStore) Crawl(_ context.Context, userID, id int64) (crawl.Crawl, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	d, err := s.owned(userID, id)
	if err != nil {
		return crawl.Crawl{}, err
	}
	return cloneCrawl(d.c), nil
}

// CrawlByID implements ports.CrawlStore.
func (s *CrawlStore) CrawlByID(_ context.Context, id int64) (crawl.Crawl, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	d, err := s.byID(id)
	if err != nil {
		return crawl.Crawl{}, err
	}
	return cloneCrawl(d.c), nil
}

// CrawlByToken implements ports.CrawlStore.
func (s *CrawlStore) CrawlByToken(_ context.Context, token string) (crawl.Crawl, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, d := range s.crawls {
		if d.c.Token == token {
			return cloneCrawl(d.c), nil
		}
	}
	return crawl.Crawl{}, crawl.ErrNotFound
}

// Crawls implements ports.CrawlStore.
func (s *CrawlStore) Crawls(_ context.Context, userID int64, q crawl.ListQuery) ([]crawl.Crawl, int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var all []crawl.Crawl
	for _, d := range s.crawls {
		if d.c.UserID == userID && q.Matches(d.c) {
			all = append(all, d.c)
		}
	}
	slices.SortFunc(all, q.Compare)
	page := pageOf(all, q.Page)
	out := make([]crawl.Crawl, len(page))
	for i, c := range page {
		out[i] = cloneCrawl(c)
	}
	return out, len(all), nil
}

// PreviousCrawl implements ports.CrawlStore.
func (s *CrawlStore) PreviousCrawl(_ context.Context, userID, id int64) (crawl.Crawl, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	d, err := s.owned(userID, id)
	if err != nil {
		return crawl.Crawl{}, err
	}
	var best *crawlData
	for _, o := range s.crawls {
		if o.c.UserID == userID && d.c.Comparable(o.c) && o.c.ID < id && o.c.Status == crawl.StatusFinished &&
			(best == nil || o.c.ID > best.c.ID) {
			best = o
		}
	}
	if best == nil {
		return crawl.Crawl{}, crawl.ErrNotFound
	}
	return cloneCrawl(best.c), nil
}

// CancelCrawl implements ports.CrawlStore; a queued crawl it ends queues
// its crawl.finished deliveries under the same lock.
func (s *CrawlStore) CancelCrawl(_ context.Context, userID, id int64, at time.Time) (crawl.Crawl, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.owned(userID, id)
	if err != nil {
		return crawl.Crawl{}, err
	}
	switch {
	case d.c.Status == crawl.StatusRunning && s.heldAt(id, at):
		d.c.CancelRequested = true // its run reads it at its next renewal
	case d.c.Status == crawl.StatusQueued, d.c.Status == crawl.StatusRunning: // running, no run holding it: ends now
		c := d.c
		c.Status, c.FinishedAt, c.Settings.Headers = crawl.StatusCancelled, micro(at), nil
		ds, err := s.reports.crawlFinished(c)
		if err != nil {
			return crawl.Crawl{}, err
		}
		d.c = c
		s.release(id)
		if len(ds) > 0 {
			s.reports.queueDeliveries(ds)
		}
	default:
		return crawl.Crawl{}, crawl.ErrTransition
	}
	return cloneCrawl(d.c), nil
}

// heldAt reports whether a run holds crawl id's site unexpired at at;
// the caller holds the lock.
func (s *CrawlStore) heldAt(id int64, at time.Time) bool {
	for _, h := range s.sites {
		if h.crawlID == id && at.Before(h.until) {
			return true
		}
	}
	return false
}

// release drops crawl id's hold of its site, if it has it.
func (s *CrawlStore) release(id int64) {
	for site, h := range s.sites {
		if h.crawlID == id {
			delete(s.sites, site)
		}
	}
}

// DeleteCrawl implements ports.CrawlStore.
func (s *CrawlStore) DeleteCrawl(_ context.Context, userID, id int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.owned(userID, id); err != nil {
		return err
	}
	delete(s.crawls, id)
	s.release(id)
	if s.dropJob != nil {
		s.dropJob(id)
	}
	return nil
}

// ClaimSite implements ports.CrawlStore.
func (s *CrawlStore) ClaimSite(_ context.Context, id int64, holder string, now, until time.Time) (crawl.Crawl, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.byID(id)
	if err != nil {
		return crawl.Crawl{}, false, err
	}
	if d.c.Status.Final() {
		return cloneCrawl(d.c), false, nil
	}
	if h, held := s.sites[d.c.Politeness]; held && now.Before(h.until) && (h.crawlID != id || h.holder != holder && h.holder != "") {
		if d.c.WaitingSince.IsZero() {
			d.c.WaitingSince = micro(now)
		}
		return cloneCrawl(d.c), false, nil
	}
	s.sites[d.c.Politeness] = siteHold{crawlID: id, holder: holder, until: micro(until)}
	if d.c.Status == crawl.StatusQueued {
		d.c.Status, d.c.StartedAt = crawl.StatusRunning, micro(now)
	}
	d.c.WaitingSince = time.Time{}
	return cloneCrawl(d.c), true, nil
}

// heldBy returns crawl id, not final, and its hold of its site by holder:
// crawl.ErrLeaseLost when holder does not hold it, crawl.ErrNotFound for
// no crawl id. Call it with s.mu held.
func (s *CrawlStore) heldBy(id int64, holder string) (*crawlData, siteHold, error) {
	d, err := s.byID(id)
	if err != nil {
		return nil, siteHold{}, err
	}
	h, held := s.sites[d.c.Politeness]
	if !held || h.crawlID != id || h.holder != holder || d.c.Status.Final() {
		return nil, siteHold{}, crawl.ErrLeaseLost
	}
	return d, h, nil
}

// RenewSite implements ports.CrawlStore.
func (s *CrawlStore) RenewSite(_ context.Context, id int64, holder string, until time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, h, err := s.heldBy(id, holder)
	if err != nil {
		return false, err
	}
	h.until = micro(until)
	s.sites[d.c.Politeness] = h
	return d.c.CancelRequested, nil
}

// FinishCrawl implements ports.CrawlStore, queueing the crawl.finished
// deliveries under the same lock when its ReportStore has a queue (NewJobs).
func (s *CrawlStore) FinishCrawl(_ context.Context, id int64, f ports.CrawlFinish) (crawl.Crawl, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.byID(id)
	if err != nil {
		return crawl.Crawl{}, err
	}
	next, err := d.c.Ending(f.Status)
	if err != nil {
		return crawl.Crawl{}, err
	}
	c := d.c
	c.Status, c.Failure, c.Score, c.Rating, c.FinishedAt = next, f.Failure, f.Score, f.Rating, micro(f.At)
	c.Summary, c.Settings.Headers = f.Summary, nil
	ds, err := s.reports.crawlFinished(c)
	if err != nil {
		return crawl.Crawl{}, err
	}
	d.c = cloneCrawl(c)
	if len(ds) > 0 {
		s.reports.queueDeliveries(ds)
	}
	inlinks := map[string]int{}
	for _, r := range d.rows {
		if r.recorded {
			for _, to := range r.page.Page.Outlinks {
				if to != r.url.URL {
					inlinks[to]++
				}
			}
		}
	}
	for _, r := range d.rows {
		if r.recorded {
			r.page.Inlinks = inlinks[r.url.URL]
		}
	}
	s.release(id)
	return cloneCrawl(d.c), nil
}

// Interface guard.
var _ ports.CrawlStore = (*CrawlStore)(nil)

// errEncode wraps a failure to encode a page's results.
func errEncode(err error) error { return fmt.Errorf("memory: encode results: %w", err) }
