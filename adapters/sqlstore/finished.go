package sqlstore

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webhook"
)

// WithDeliveries returns the report store on the same engine that queues,
// on q, the report.finished deliveries of every report its writes finish
// (report.Finishes), in the transaction of that write: the deliveries,
// their jobs and the report commit together or not at all. Without it (a
// store from NewReportStore) no delivery is ever stored: nothing would run
// them.
func (s *ReportStore) WithDeliveries(q DeliveryEnqueuer) *ReportStore {
	c := *s
	c.deliveries = q
	return &c
}

// queueFinished stores in tx the report.finished deliveries of next, whose
// write turns prev into it, to the user's webhooks that want the event,
// and enqueues their jobs: only when the write finishes an analysis
// (report.Finishes) and the store has a delivery queue.
func (s store) queueFinished(ctx context.Context, tx bun.Tx, prev, next report.Report) error {
	if s.deliveries == nil || !report.Finishes(prev, next) {
		return nil
	}
	hooks, err := s.webhooksOf(ctx, tx, next.UserID)
	if err != nil {
		return err
	}
	ds, err := webhook.Finished(next, hooks, time.Now())
	if err != nil {
		return err
	}
	return s.queueDeliveries(ctx, tx, ds)
}

// WithDeliveries returns the crawl store on the same engine that queues,
// on q, the crawl.finished deliveries of every crawl FinishCrawl ends, in
// its transaction. Without it no delivery is stored.
func (s *CrawlStore) WithDeliveries(q DeliveryEnqueuer) *CrawlStore {
	c := *s
	c.deliveries = q
	return &c
}

// queueCrawlFinished stores in tx the crawl.finished deliveries of c, just
// ended, to the user's webhooks that want the event, and enqueues their
// jobs, when the store has a delivery queue.
func (s store) queueCrawlFinished(ctx context.Context, tx bun.Tx, c crawl.Crawl) error {
	if s.deliveries == nil {
		return nil
	}
	hooks, err := s.webhooksOf(ctx, tx, c.UserID)
	if err != nil {
		return err
	}
	ds, err := webhook.CrawlFinished(c, hooks, time.Now())
	if err != nil {
		return err
	}
	return s.queueDeliveries(ctx, tx, ds)
}

// queueDeliveries inserts ds in tx and enqueues a job for each.
func (s store) queueDeliveries(ctx context.Context, tx bun.Tx, ds []webhook.Delivery) error {
	for _, d := range ds {
		row := deliveryRowOf(d)
		row.ID = 0
		if _, err := tx.NewInsert().Model(&row).Exec(ctx); err != nil {
			return s.wrap("create delivery", err)
		}
		if _, err := s.deliveries.InsertDelivery(ctx, tx.Tx, row.ID); err != nil {
			return s.wrap("enqueue delivery", err)
		}
	}
	return nil
}
