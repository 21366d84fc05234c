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
	return &Jobs{Queue: q, db: db}, nil
}

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
	rows, err := newReportRows([]site.Report{r})
	if err != nil {
		return site.Report{}, 0, err
	}
	ctx, cancel := j.db.bound(ctx)
	defer cancel()
	var jobID int64
	err = j.db.inTx(ctx, "create report with job", func(ctx context.Context, tx bun.Tx) error {
		if err := insertReports(ctx, tx, rows, idem); err != nil {
			return err
		}
		jobID, err = j.Insert(ctx, tx.Tx, rows[0].ID, rows[0].UserID, runAt)
		return wrapNonNil("enqueue analysis", err)
	})
	if err != nil {
		return site.Report{}, 0, err
	}
	out, err := rows[0].toDomain()
	return out, jobID, err
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
