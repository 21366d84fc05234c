package sqlstore

import (
	"context"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/report"
)

// activeRun is the condition "a run of crawl c.id is queued or running",
// c being the outer crawls row.
const activeRun = "EXISTS (SELECT 1 FROM crawls AS r WHERE r.scheduled_from = c.id AND r.status IN ('queued', 'running'))"

// startRun checks, in tx, that run's source (run.ScheduledFrom) is due at
// run.CreatedAt with no run active, and moves the source's next run one
// period past it; crawl.ErrNotDue when it is not due.
func (s *CrawlStore) startRun(ctx context.Context, tx bun.Tx, run crawl.Crawl) error {
	_, src, err := s.lockCrawl(ctx, tx, run.UserID, run.ScheduledFrom)
	if errors.Is(err, crawl.ErrNotFound) {
		return crawl.ErrNotDue
	}
	if err != nil {
		return err
	}
	if !src.Due(run.CreatedAt) {
		return crawl.ErrNotDue
	}
	busy, err := tx.NewSelect().Model((*crawlRow)(nil)).Where("c.id = ?", src.ID).Where(activeRun).Exists(ctx)
	if err != nil {
		return s.wrap("find active runs", err)
	}
	if busy {
		return crawl.ErrNotDue
	}
	_, err = tx.NewUpdate().Model((*crawlRow)(nil)).
		Set("next_run_at = ?", stampOf(crawl.NextRun(src.Settings.Schedule, run.CreatedAt))).
		Where("id = ?", src.ID).Exec(ctx)
	return s.wrap("move next run", err)
}

// DueCrawls implements ports.CrawlStore.
func (s *CrawlStore) DueCrawls(ctx context.Context, now time.Time, limit int) ([]crawl.Crawl, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var rows []crawlRow
	err := s.e.Read.NewSelect().Model(&rows).
		Where("next_run_at > ? AND next_run_at <= ?", stampOf(time.Time{}), stampOf(now)).
		Where("status IN (?, ?, ?)", string(crawl.StatusFinished), string(crawl.StatusCancelled), string(crawl.StatusFailed)).
		Where("NOT " + activeRun).
		OrderExpr("next_run_at, id").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, s.wrap("find due crawls", err)
	}
	out, err := crawlsOf(rows)
	if err != nil {
		return nil, err
	}
	due := out[:0]
	for _, c := range out {
		if c.Due(now) {
			due = append(due, c)
		}
	}
	return due, nil
}

// SetSchedule implements ports.CrawlStore.
func (s *CrawlStore) SetSchedule(ctx context.Context, userID, id int64, sch report.Schedule, next time.Time) (crawl.Crawl, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var out crawl.Crawl
	err := s.inTx(ctx, "set crawl schedule", func(ctx context.Context, tx bun.Tx) error {
		_, c, err := s.lockCrawl(ctx, tx, userID, id)
		if err != nil {
			return err
		}
		c.Settings.Schedule, c.NextRunAt = sch, next
		if sch == report.ScheduleOff {
			c.NextRunAt = time.Time{}
		}
		row, err := crawlRowOf(c)
		if err != nil {
			return err
		}
		if _, err := tx.NewUpdate().Model(&row).Column("settings", "next_run_at").WherePK().Exec(ctx); err != nil {
			return s.wrap("set crawl schedule", err)
		}
		out, err = row.toDomain()
		return err
	})
	if err != nil {
		return crawl.Crawl{}, err
	}
	return out, nil
}

// DeferRun implements ports.CrawlStore.
func (s *CrawlStore) DeferRun(ctx context.Context, id int64, next time.Time) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	res, err := s.e.Write.NewUpdate().Model((*crawlRow)(nil)).Set("next_run_at = ?", stampOf(next)).
		Where("id = ? AND next_run_at > ?", id, stampOf(time.Time{})).Exec(ctx)
	if err != nil {
		return s.wrap("defer crawl run", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		if _, err := s.CrawlByID(ctx, id); err != nil {
			return err
		}
	}
	return nil
}
