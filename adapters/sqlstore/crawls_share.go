package sqlstore

import (
	"context"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
)

// Share implements ports.CrawlStore with a few reads: the user's running
// crawls (index crawls_user_status), the waiting crawls of others whose
// site is free or handed to them (index crawls_status_created), and,
// while the crawl holds its site, those waiting for it (index
// crawls_politeness).
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
		Where("c.status IN (?, ?) AND c.waiting_since > ? AND c.user_id <> ?", string(crawl.StatusQueued), string(crawl.StatusRunning),
			stampOf(now.Add(-crawl.MaxYieldFor)), c.UserID).
		Where("NOT EXISTS (SELECT 1 FROM crawl_sites AS h WHERE h.site = c.politeness AND h.lease_until > ? AND NOT (h.crawl_id = c.id AND h.holder = ''))", stampOf(now)).
		Exists(ctx)
	if err != nil {
		return crawl.Share{}, s.wrap("find waiting crawls", err)
	}
	holds, err := s.e.Read.NewSelect().Model((*siteRow)(nil)).
		Where("site = ? AND crawl_id = ? AND lease_until > ?", c.Politeness, id, stampOf(now)).Exists(ctx)
	if err != nil || !holds {
		return sh, s.wrap("read site hold", err)
	}
	if sh.SiteWaiting, err = s.waitingFor(s.e.Read.NewSelect().Model((*crawlRow)(nil)), c, now).Exists(ctx); err != nil {
		return crawl.Share{}, s.wrap("find crawls waiting for the site", err)
	}
	return sh, nil
}
