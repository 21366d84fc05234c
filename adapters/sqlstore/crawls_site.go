package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/ports"
)

// siteRow is the hold of a site (a politeness unit, crawl.Crawl.Politeness)
// by its running crawl; Holder is "" while the site is handed to the
// crawl (YieldSite) and none of its runs has claimed it yet.
type siteRow struct {
	bun.BaseModel `bun:"table:crawl_sites,alias:cs"`

	Site       string `bun:"site,pk"`
	CrawlID    int64  `bun:"crawl_id"`
	Holder     string `bun:"holder"`
	LeaseUntil stamp  `bun:"lease_until"`
}

// ClaimSite implements ports.CrawlStore in one transaction: the crawl's
// row is locked, then one upsert takes the site's row only when it is
// free, expired, handed to the crawl, or this run's already (a concurrent
// claim of the site waits for the row, then sees it).
func (s *CrawlStore) ClaimSite(ctx context.Context, id int64, holder string, now, until time.Time) (crawl.Crawl, bool, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var out crawl.Crawl
	claimed := false
	err := s.inTx(ctx, "claim site", func(ctx context.Context, tx bun.Tx) error {
		_, c, err := s.lockCrawl(ctx, tx, 0, id)
		if err != nil {
			return err
		}
		out = c
		if c.Status.Final() {
			return nil
		}
		row := siteRow{Site: c.Politeness, CrawlID: id, Holder: holder, LeaseUntil: stampOf(until)}
		res, err := tx.NewInsert().Model(&row).
			On("CONFLICT (site) DO UPDATE").
			Set("crawl_id = EXCLUDED.crawl_id, holder = EXCLUDED.holder, lease_until = EXCLUDED.lease_until").
			Where("cs.lease_until <= ? OR (cs.crawl_id = EXCLUDED.crawl_id AND cs.holder IN (EXCLUDED.holder, ''))", stampOf(now)).
			Returning("NULL").Exec(ctx)
		if err != nil {
			return s.wrap("claim site", err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			if c.WaitingSince.IsZero() { // it waits from now
				c.WaitingSince = now
				out, err = s.updateCrawl(ctx, tx, c)
			}
			return err
		}
		claimed = true
		if c.Status == crawl.StatusQueued || !c.WaitingSince.IsZero() {
			if c.Status == crawl.StatusQueued {
				c.Status, c.StartedAt = crawl.StatusRunning, now
			}
			c.WaitingSince = time.Time{}
			out, err = s.updateCrawl(ctx, tx, c)
			return err
		}
		return nil
	})
	if err != nil {
		return crawl.Crawl{}, false, err
	}
	return out, claimed, nil
}

// YieldSite implements ports.CrawlStore in one transaction: the crawl's
// row is locked, the crawl waiting longest for the site is read (index
// crawls_politeness), and the site's row goes to it, or is deleted.
func (s *CrawlStore) YieldSite(ctx context.Context, id int64, holder string, now, until time.Time) (bool, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	handed := false
	err := s.inTx(ctx, "yield site", func(ctx context.Context, tx bun.Tx) error {
		_, c, err := s.lockCrawl(ctx, tx, 0, id)
		if err != nil {
			return err
		}
		if c.Status.Final() {
			return crawl.ErrLeaseLost
		}
		var next []int64
		err = s.waitingFor(tx.NewSelect().Model((*crawlRow)(nil)).Column("id"), c, now).
			OrderExpr("waiting_since, id").Limit(1).Scan(ctx, &next)
		if err != nil {
			return s.wrap("find waiting crawl", err)
		}
		var res sql.Result
		if handed = len(next) == 1; handed {
			res, err = tx.NewUpdate().Model((*siteRow)(nil)).
				Set("crawl_id = ?, holder = '', lease_until = ?", next[0], stampOf(until)).
				Where("site = ? AND crawl_id = ? AND holder = ?", c.Politeness, id, holder).Exec(ctx)
		} else {
			res, err = tx.NewDelete().Model((*siteRow)(nil)).
				Where("site = ? AND crawl_id = ? AND holder = ?", c.Politeness, id, holder).Exec(ctx)
		}
		if err != nil {
			return s.wrap("yield site", err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return crawl.ErrLeaseLost
		}
		c.WaitingSince = now
		_, err = s.updateCrawl(ctx, tx, c)
		return err
	})
	return handed, err
}

// waitingFor narrows q (over crawls, alias c) to the crawls of other
// users than c's waiting at now for c's site since less than
// crawl.MaxYieldFor (ports.CrawlStore.Share's SiteWaiting).
func (s *CrawlStore) waitingFor(q *bun.SelectQuery, c crawl.Crawl, now time.Time) *bun.SelectQuery {
	return q.Where("c.politeness = ? AND c.status IN (?, ?) AND c.user_id <> ? AND c.waiting_since > ?", c.Politeness,
		string(crawl.StatusQueued), string(crawl.StatusRunning), c.UserID, stampOf(now.Add(-crawl.MaxYieldFor)))
}

// RenewSite implements ports.CrawlStore.
func (s *CrawlStore) RenewSite(ctx context.Context, id int64, holder string, until time.Time) (bool, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	cancelRequested := false
	err := s.inTx(ctx, "renew site", func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewUpdate().Model((*siteRow)(nil)).Set("lease_until = ?", stampOf(until)).
			Where("crawl_id = ? AND holder = ?", id, holder).Exec(ctx)
		if err != nil {
			return s.wrap("renew site", err)
		}
		renewed, _ := res.RowsAffected()
		var row crawlRow
		if err := tx.NewSelect().Model(&row).Column("cancel_requested").Where("id = ?", id).Scan(ctx); err != nil {
			return s.missing(err, crawl.ErrNotFound, "read crawl")
		}
		if renewed == 0 {
			return crawl.ErrLeaseLost
		}
		cancelRequested = row.CancelRequested
		return nil
	})
	return cancelRequested, err
}

// releaseSite drops crawl id's hold of its site in tx, if it has it.
func (s *CrawlStore) releaseSite(ctx context.Context, tx bun.Tx, id int64) error {
	_, err := tx.NewDelete().Model((*siteRow)(nil)).Where("crawl_id = ?", id).Exec(ctx)
	return s.wrap("release site", err)
}

// FinishCrawl implements ports.CrawlStore in one transaction, queueing
// the crawl.finished deliveries with it (WithDeliveries).
func (s *CrawlStore) FinishCrawl(ctx context.Context, id int64, f ports.CrawlFinish) (crawl.Crawl, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var out crawl.Crawl
	err := s.inTx(ctx, "finish crawl", func(ctx context.Context, tx bun.Tx) error {
		_, c, err := s.lockCrawl(ctx, tx, 0, id)
		if err != nil {
			return err
		}
		next, err := c.Ending(f.Status)
		if err != nil {
			return err
		}
		c.Status, c.Failure, c.Score, c.Rating, c.FinishedAt = next, f.Failure, f.Score, f.Rating, f.At
		c.Summary, c.Settings.Headers = f.Summary, nil
		if out, err = s.updateCrawl(ctx, tx, c); err != nil {
			return err
		}
		if err := s.queueCrawlFinished(ctx, tx, out); err != nil {
			return err
		}
		_, err = tx.NewUpdate().Model((*urlRow)(nil)).
			Set("inlinks = (SELECT count(*) FROM crawl_links AS l WHERE l.crawl_id = u.crawl_id AND l.to_url = u.url AND l.from_id <> u.id)").
			Where("crawl_id = ? AND recorded = TRUE", id).Exec(ctx)
		if err != nil {
			return s.wrap("count inlinks", err)
		}
		return s.releaseSite(ctx, tx, id)
	})
	if err != nil {
		return crawl.Crawl{}, err
	}
	return out, nil
}
