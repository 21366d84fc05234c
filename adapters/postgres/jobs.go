package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/adapters/riverjobs"
	"github.com/pinsight/pinsight/domain/site"
	"github.com/pinsight/pinsight/ports"
)

// Jobs is the durable queue of analyses in PostgreSQL: River's
// riverdatabasesql driver on the pool bun uses (pgx's stdlib), so a job is
// inserted with the *sql.Tx that writes its report. Workers poll for due
// jobs (riverdatabasesql has no LISTEN).
type Jobs struct {
	*riverjobs.Queue
	db *DB
}

// NewJobs returns the queue on db; Migrate must have run.
func NewJobs(db *DB, cfg riverjobs.Config) (*Jobs, error) {
	q, err := riverjobs.New(riverdatabasesql.New(db.DB.DB), db.DB.DB, cfg)
	if err != nil {
		return nil, err
	}
	return &Jobs{Queue: q, db: db}, nil
}

// riverLockKey serialises River's migrations across instances
// (pg_advisory_xact_lock: released with the transaction, so a killed
// process never leaves it held).
const riverLockKey = 7_149_553_102

// migrateRiver applies River's migrations (down: reverts them all) one by
// one, each in a transaction holding riverLockKey: instances starting
// together wait for it, then find the step applied.
func migrateRiver(ctx context.Context, db *DB, down bool) ([]string, error) {
	driver := riverdatabasesql.New(db.DB.DB)
	var names []string
	for {
		var step []string
		err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) (err error) {
			if _, err := tx.ExecContext(ctx, fmt.Sprintf("SELECT pg_advisory_xact_lock(%d)", riverLockKey)); err != nil {
				return err
			}
			step, err = riverjobs.StepTx(ctx, driver, tx.Tx, down)
			return err
		})
		if err != nil {
			return names, fmt.Errorf("postgres: river migrations: %w", err)
		}
		if len(step) == 0 {
			return names, nil
		}
		names = append(names, step...)
	}
}

// CreateWithJob implements ports.Jobs.
func (j *Jobs) CreateWithJob(ctx context.Context, r site.Report, idem *site.Idempotency, runAt time.Time) (site.Report, int64, error) {
	ctx, cancel := j.db.bound(ctx)
	defer cancel()
	rows := []reportRow{reportRowFrom(r)}
	rows[0].ID, rows[0].Token = 0, site.NewShareToken()
	var jobID int64
	err := j.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := insertReports(ctx, tx, rows, idem); err != nil {
			return err
		}
		var err error
		jobID, err = j.Insert(ctx, tx.Tx, rows[0].ID, rows[0].UserID, runAt)
		return err
	})
	if err != nil {
		return site.Report{}, 0, txErr("create report with job", err)
	}
	return rows[0].toDomain(), jobID, nil
}

// UpdateWithJob implements ports.Jobs.
func (j *Jobs) UpdateWithJob(ctx context.Context, userID, id int64, update func(*site.Report) error, runAt time.Time) (site.Report, int64, error) {
	ctx, cancel := j.db.bound(ctx)
	defer cancel()
	var out site.Report
	var jobID int64
	err := j.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) (err error) {
		if out, err = updateIn(ctx, tx, userID, id, update); err != nil {
			return err
		}
		jobID, err = j.Insert(ctx, tx.Tx, id, userID, runAt)
		return err
	})
	return out, jobID, txErr("update report with job", err)
}

// Interface guard.
var _ ports.Jobs = (*Jobs)(nil)
