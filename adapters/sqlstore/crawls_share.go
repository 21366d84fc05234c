package sqlstore

import (
	"context"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
)

// Share implements ports.CrawlStore with two reads: the user's running
// crawls (index crawls_user_status) and the queued crawls of others whose
// site is free (index crawls_status_created).
func (s *CrawlStore) Share(ctx context.Context, id int64, now time.Time) (crawl.Share, error) {
	c, err := s.CrawlByID(ctx, id)
	if err != nil || c.Status.Final() {
		return crawl.Share{}, err
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var sh crawl.Share
	n, err := s.e.Read.NewSelect().Model((*crawlRow)(nil)).
		Where("user_id = ? AND status = ? AND id <> ?", c.UserID, string(crawl.StatusRunning), id).Count(ctx)
	if err != nil {
		return crawl.Share{}, s.wrap("count running crawls", err)
	}
	sh.UserRunning = int(n)
	sh.OtherWaiting, err = s.e.Read.NewSelect().Model((*crawlRow)(nil)).
		Where("c.status = ? AND c.created_at > ? AND c.user_id <> ?", string(crawl.StatusQueued), stampOf(now.Add(-crawl.MaxYieldFor)), c.UserID).
		Where("NOT EXISTS (SELECT 1 FROM crawl_sites AS h WHERE h.site = c.site AND h.lease_until > ?)", stampOf(now)).
		Exists(ctx)
	if err != nil {
		return crawl.Share{}, s.wrap("find waiting crawls", err)
	}
	return sh, nil
}
