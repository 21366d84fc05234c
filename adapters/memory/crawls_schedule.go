package memory

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/report"
)

// dueLocked returns the user's crawl id when its scheduled run is due at
// now and none of its runs is queued or running; nil otherwise. The
// caller holds the lock.
func (s *CrawlStore) dueLocked(userID, id int64, now time.Time) *crawlData {
	d, err := s.owned(userID, id)
	if err != nil || !d.c.Due(now) {
		return nil
	}
	for _, o := range s.crawls {
		if o.c.ScheduledFrom == id && !o.c.Status.Final() {
			return nil
		}
	}
	return d
}

// DueCrawls implements ports.CrawlStore.
func (s *CrawlStore) DueCrawls(_ context.Context, now time.Time, limit int) ([]crawl.Crawl, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var due []crawl.Crawl
	for _, d := range s.crawls {
		if s.dueLocked(d.c.UserID, d.c.ID, now) != nil {
			due = append(due, d.c)
		}
	}
	slices.SortFunc(due, func(a, b crawl.Crawl) int {
		return cmp.Or(a.NextRunAt.Compare(b.NextRunAt), cmp.Compare(a.ID, b.ID))
	})
	out := make([]crawl.Crawl, 0, min(limit, len(due)))
	for _, c := range due[:min(limit, len(due))] {
		out = append(out, cloneCrawl(c))
	}
	return out, nil
}

// SetSchedule implements ports.CrawlStore.
func (s *CrawlStore) SetSchedule(_ context.Context, userID, id int64, sch report.Schedule, next time.Time) (crawl.Crawl, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.owned(userID, id)
	if err != nil {
		return crawl.Crawl{}, err
	}
	d.c.Settings.Schedule, d.c.NextRunAt = sch, micro(next)
	if sch == report.ScheduleOff {
		d.c.NextRunAt = time.Time{}
	}
	return cloneCrawl(d.c), nil
}

// DeferRun implements ports.CrawlStore.
func (s *CrawlStore) DeferRun(_ context.Context, id int64, next time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, err := s.byID(id)
	if err != nil {
		return err
	}
	if !d.c.NextRunAt.IsZero() {
		d.c.NextRunAt = micro(next)
	}
	return nil
}
