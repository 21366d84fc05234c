package sqlite

import (
	"context"
	"time"

	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/adapters/riverjobs"
	"github.com/pinsight/pinsight/domain/site"
	"github.com/pinsight/pinsight/ports"
)

// Jobs is the durable queue of analyses in the database file: River's
// riversqlite driver on the one writing connection (the pool size River
// recommends on SQLite), jobs inserted in the report's IMMEDIATE
// transaction. SQLite has no notifications: workers poll for due jobs.
type Jobs struct {
	*riverjobs.Queue
	db *DB
}

// NewJobs returns the queue on db; Migrate must have run.
func NewJobs(db *DB, cfg riverjobs.Config) (*Jobs, error) {
	q, err := riverjobs.New(riversqlite.New(db.write.DB), db.read.DB, cfg)
	if err != nil {
		return nil, err
	}
	j := &Jobs{Queue: q, db: db}
	q.SetSweep(j.sweep)
	return j, nil
}

// sweep enqueues the scheduled analyses due now (the periodic job).
func (j *Jobs) sweep(ctx context.Context) error {
	_, err := j.EnqueueDue(ctx, time.Now(), sweepBatch)
	return err
}

// sweepBatch bounds the reports one sweep enqueues; the next takes the rest.
const sweepBatch = 500

// migrateRiver applies River's migrations to the file (down: reverts them
// all) in one IMMEDIATE transaction, so processes starting together apply
// them once.
func migrateRiver(ctx context.Context, db *DB, down bool) ([]string, error) {
	var names []string
	err := db.inTx(ctx, "migrate river", func(ctx context.Context, tx bun.Tx) (err error) {
		driver := riversqlite.New(db.write.DB)
		if down {
			names, err = riverjobs.RollbackTx(ctx, driver, tx.Tx)
		} else {
			names, err = riverjobs.MigrateTx(ctx, driver, tx.Tx)
		}
		return err
	})
	return names, err
}

// CreateWithJob implements ports.Jobs.
func (j *Jobs) CreateWithJob(ctx context.Context, r site.Report, idem *site.Idempotency, runAt time.Time) (site.Report, int64, error) {
	out, ids, err := j.create(ctx, []site.Report{r}, idem, []time.Time{runAt})
	if err != nil {
		return site.Report{}, 0, err
	}
	return out[0], ids[0], nil
}

// CreateManyWithJobs implements ports.Jobs.
func (j *Jobs) CreateManyWithJobs(ctx context.Context, rs []site.Report, idem *site.Idempotency, runAt []time.Time) ([]site.Report, []int64, error) {
	return j.create(ctx, rs, idem, runAt)
}

// create inserts rs and their jobs in one IMMEDIATE transaction.
func (j *Jobs) create(ctx context.Context, rs []site.Report, idem *site.Idempotency, runAt []time.Time) ([]site.Report, []int64, error) {
	rows, err := newReportRows(rs)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := j.db.bound(ctx)
	defer cancel()
	jobIDs := make([]int64, len(rows))
	err = j.db.inTx(ctx, "create reports with jobs", func(ctx context.Context, tx bun.Tx) error {
		if err := insertReports(ctx, tx, rows, idem); err != nil {
			return err
		}
		for i, row := range rows {
			if jobIDs[i], err = j.Insert(ctx, tx.Tx, row.ID, row.UserID, runAt[i]); err != nil {
				return wrap("enqueue analysis", err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	out, err := domainReports(rows)
	return out, jobIDs, err
}

// UpdateWithJob implements ports.Jobs.
func (j *Jobs) UpdateWithJob(ctx context.Context, userID, id int64, update func(*site.Report) error, runAt time.Time) (site.Report, int64, error) {
	ctx, cancel := j.db.bound(ctx)
	defer cancel()
	var out site.Report
	var jobID int64
	err := j.db.inTx(ctx, "update report with job", func(ctx context.Context, tx bun.Tx) (err error) {
		if out, err = updateIn(ctx, tx, userID, id, update); err != nil {
			return err
		}
		jobID, err = j.Insert(ctx, tx.Tx, id, userID, runAt)
		return wrapNonNil("enqueue analysis", err)
	})
	return out, jobID, err
}

// wrapNonNil is wrap for an error that may be nil.
func wrapNonNil(op string, err error) error {
	if err == nil {
		return nil
	}
	return wrap(op, err)
}

// Interface guard.
var _ ports.Jobs = (*Jobs)(nil)
