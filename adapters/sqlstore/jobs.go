package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/report"
)

// Enqueuer puts jobs on an engine's durable queue within the transaction
// that writes what they work on, so a job exists if and only if its row
// does (River's Queue.Insert and Queue.InsertDelivery).
type Enqueuer interface {
	// Insert enqueues the analysis of the user's report reportID to run at
	// runAt (now when zero), and returns the job's id.
	Insert(ctx context.Context, tx *sql.Tx, reportID, userID int64, runAt time.Time) (int64, error)
	// InsertCrawl enqueues the run of the user's crawl crawlID, and
	// returns the job's id.
	InsertCrawl(ctx context.Context, tx *sql.Tx, crawlID, userID int64) (int64, error)
	DeliveryEnqueuer
}

// DeliveryEnqueuer puts webhook deliveries on an engine's durable queue
// within the transaction that stores them (River's Queue.InsertDelivery).
type DeliveryEnqueuer interface {
	// InsertDelivery enqueues webhook delivery deliveryID.
	InsertDelivery(ctx context.Context, tx *sql.Tx, deliveryID int64) (int64, error)
}

// JobStore is the transactional half of ports.Jobs: the writes that
// enqueue analyses with their rows. Its report writes queue the
// deliveries of the reports they finish too, as a ReportStore's
// WithDeliveries does. An engine's queue type embeds it beside the queue
// that runs the jobs.
type JobStore struct {
	store
	queue Enqueuer
}

// NewJobStore returns the job store on e, enqueueing on q.
func NewJobStore(e Engine, q Enqueuer) *JobStore {
	s := newStore(e)
	s.deliveries = q
	return &JobStore{store: s, queue: q}
}

// sweepBatch bounds the scheduled reports one sweep enqueues; the next
// sweep takes the rest.
const sweepBatch = 500

// Sweep enqueues the scheduled analyses due now: the queue's periodic job.
func (j *JobStore) Sweep(ctx context.Context) error {
	_, err := j.EnqueueDue(ctx, time.Now(), sweepBatch)
	return err
}

// CreateWithJob implements ports.Jobs.
func (j *JobStore) CreateWithJob(ctx context.Context, r report.Report, idem *report.Idempotency, runAt time.Time) (report.Report, int64, error) {
	out, ids, err := j.create(ctx, []report.Report{r}, idem, []time.Time{runAt})
	if err != nil {
		return report.Report{}, 0, err
	}
	return out[0], ids[0], nil
}

// CreateManyWithJobs implements ports.Jobs.
func (j *JobStore) CreateManyWithJobs(ctx context.Context, rs []report.Report, idem *report.Idempotency, runAt []time.Time) ([]report.Report, []int64, error) {
	return j.create(ctx, rs, idem, runAt)
}

// create inserts rs and their jobs in one transaction.
func (j *JobStore) create(ctx context.Context, rs []report.Report, idem *report.Idempotency, runAt []time.Time) ([]report.Report, []int64, error) {
	rows := newReportRows(rs)
	ctx, cancel := j.bound(ctx)
	defer cancel()
	jobIDs := make([]int64, len(rows))
	err := j.inCreateTx(ctx, "create reports with jobs", rows, idem, func(ctx context.Context, tx bun.Tx) (err error) {
		if err := j.insertReports(ctx, tx, rows, idem); err != nil {
			return err
		}
		for i, row := range rows {
			if jobIDs[i], err = j.queue.Insert(ctx, tx.Tx, row.ID, row.UserID, runAt[i]); err != nil {
				return j.wrap("enqueue analysis", err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return reportsOf(rows), jobIDs, nil
}

// UpdateWithJob implements ports.Jobs.
func (j *JobStore) UpdateWithJob(ctx context.Context, userID, id int64, update func(*report.Report) error, runAt time.Time) (report.Report, int64, error) {
	ctx, cancel := j.bound(ctx)
	defer cancel()
	var out report.Report
	var jobID int64
	err := j.inTx(ctx, "update report with job", func(ctx context.Context, tx bun.Tx) (err error) {
		if out, err = j.updateIn(ctx, tx, userID, id, update); err != nil {
			return err
		}
		jobID, err = j.queue.Insert(ctx, tx.Tx, id, userID, runAt)
		return j.wrap("enqueue analysis", err)
	})
	return out, jobID, err
}

// CreateCrawlWithJob implements ports.CrawlQueue: the crawl store's
// create, enqueueing the crawl's run in its transaction.
func (j *JobStore) CreateCrawlWithJob(ctx context.Context, c crawl.Crawl, limit int, idem *report.Idempotency) (crawl.Crawl, int64, error) {
	var jobID int64
	out, err := (&CrawlStore{j.store}).createCrawl(ctx, c, limit, idem, func(ctx context.Context, tx bun.Tx, id int64) (err error) {
		jobID, err = j.queue.InsertCrawl(ctx, tx.Tx, id, c.UserID)
		return j.wrap("enqueue crawl", err)
	})
	if err != nil {
		return crawl.Crawl{}, 0, err
	}
	return out, jobID, nil
}

// EnqueueDue implements ports.Jobs: due rows are locked, skipping those
// another transaction holds, so instances sweeping at once never take the
// same report.
func (j *JobStore) EnqueueDue(ctx context.Context, now time.Time, limit int) (int, error) {
	ctx, cancel := j.bound(ctx)
	defer cancel()
	n := 0
	err := j.inTx(ctx, "enqueue scheduled analyses", func(ctx context.Context, tx bun.Tx) error {
		var rows []reportRow
		due := tx.NewSelect().Model(&rows).Column("id", "user_id", "schedule").
			Where("schedule <> '' AND next_run_at <= ? AND status IN ('generated', 'failed')", stampOf(now)).
			OrderExpr("next_run_at").Limit(int64(limit))
		if err := j.dialect.lockRows(due, true).Scan(ctx); err != nil {
			return j.wrap("find due reports", err)
		}
		for _, row := range rows {
			next := stampOf(now.Add(report.Schedule(row.Schedule).Period()))
			_, err := tx.NewUpdate().Model((*reportRow)(nil)).
				Set("status = ?", string(report.StatusPending)).Set("attempts = 0").Set("failure = ''").Set("next_run_at = ?", next).
				Where("id = ?", row.ID).Exec(ctx)
			if err != nil {
				return j.wrap("mark report due", err)
			}
			if _, err := j.queue.Insert(ctx, tx.Tx, row.ID, row.UserID, time.Time{}); err != nil {
				return j.wrap("enqueue scheduled analysis", err)
			}
			n++
		}
		return nil
	})
	return n, err
}
