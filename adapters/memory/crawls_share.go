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
	for _, o := range s.crawls {
		switch {
		case o.c.UserID == d.c.UserID && o.c.ID != id && o.c.Status == crawl.StatusRunning:
			sh.UserRunning++
		case o.c.UserID != d.c.UserID && o.c.Status == crawl.StatusQueued && o.c.CreatedAt.After(now.Add(-crawl.MaxYieldFor)):
			if h, held := s.sites[o.c.Site]; !held || !now.Before(h.until) {
				sh.OtherWaiting = true
			}
		}
	}
	return sh, nil
}
