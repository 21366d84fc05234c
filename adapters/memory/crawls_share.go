package memory

import (
	"context"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
)

// Share implements ports.CrawlStore.
func (s *CrawlStore) Share(_ context.Context, id int64, now time.Time) (crawl.Share, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	d, err := s.byID(id)
	if err != nil || d.c.Status.Final() {
		return crawl.Share{}, err
	}
	var sh crawl.Share
	h, held := s.sites[d.c.Politeness]
	holds := held && now.Before(h.until) && h.crawlID == id
	for _, o := range s.crawls {
		switch {
		case o.c.UserID == d.c.UserID && o.c.ID != id && o.c.Status == crawl.StatusRunning:
			sh.UserRunning++
		case o.c.UserID != d.c.UserID && s.waiting(o.c, now):
			if o.c.Politeness == d.c.Politeness && holds {
				sh.SiteWaiting = true
			}
			if h, held := s.sites[o.c.Politeness]; !held || !now.Before(h.until) || h.crawlID == o.c.ID && h.holder == "" {
				sh.OtherWaiting = true
			}
		}
	}
	return sh, nil
}

// waiting reports whether c waits at now for its site or a worker, since
// less than crawl.MaxYieldFor.
func (s *CrawlStore) waiting(c crawl.Crawl, now time.Time) bool {
	return !c.Status.Final() && !c.WaitingSince.IsZero() && c.WaitingSince.After(now.Add(-crawl.MaxYieldFor))
}

// YieldSite implements ports.CrawlStore.
func (s *CrawlStore) YieldSite(_ context.Context, id int64, holder string, now, until time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, _, err := s.heldBy(id, holder)
	if err != nil {
		return false, err
	}
	delete(s.sites, d.c.Politeness)
	d.c.WaitingSince = micro(now)
	var next *crawlData
	for _, o := range s.crawls {
		if o.c.UserID != d.c.UserID && o.c.Politeness == d.c.Politeness && s.waiting(o.c, now) &&
			(next == nil || o.c.WaitingSince.Before(next.c.WaitingSince) || o.c.WaitingSince.Equal(next.c.WaitingSince) && o.c.ID < next.c.ID) {
			next = o
		}
	}
	if next == nil {
		return false, nil
	}
	s.sites[d.c.Politeness] = siteHold{crawlID: next.c.ID, until: micro(until)}
	return true, nil
}
