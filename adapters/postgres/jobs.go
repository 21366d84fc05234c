package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/adapters/riverjobs"
	"github.com/pinsight/pinsight/domain/site"
	"github.com/pinsight/pinsight/ports"
)

// Jobs is the durable queue of analyses in PostgreSQL: River's
// riverdatabasesql driver on the pool bun uses (pgx's stdlib), so a job is
// inserted with the *sql.Tx that writes its report, with a small pgx pool
// of its own for LISTEN: workers hear of new jobs at once, on every
// instance, instead of polling.
type Jobs struct {
	*riverjobs.Queue
	db     *DB
	listen *pgxpool.Pool
}

// NewJobs returns the queue on db; Migrate must have run. Its listening
// pool connects on first use and is closed by Stop.
func NewJobs(db *DB, cfg riverjobs.Config) (*Jobs, error) {
	pcfg, err := pgxpool.ParseConfig(db.dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres: job queue: %w", err)
	}
	pcfg.MaxConns = 2 // LISTEN holds one connection
	listen, err := pgxpool.NewWithConfig(context.Background(), pcfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: job queue: %w", err)
	}
	q, err := riverjobs.New(riverdatabasesql.NewWithPgxListener(db.DB.DB, listen), db.DB.DB, cfg)
	if err != nil {
		listen.Close()
		return nil, err
	}
	j := &Jobs{Queue: q, db: db, listen: listen}
	q.SetSweep(j.sweep)
	return j, nil
}

// Stop implements ports.Jobs, then closes the listening pool.
func (j *Jobs) Stop(ctx context.Context) error {
	err := j.Queue.Stop(ctx)
	j.listen.Close()
	return err
}

// sweep enqueues the scheduled analyses due now (the periodic job).
func (j *Jobs) sweep(ctx context.Context) error {
	_, err := j.EnqueueDue(ctx, time.Now(), sweepBatch)
	return err
}

// sweepBatch bounds the reports one sweep enqueues; the next takes the rest.
const sweepBatch = 500

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

// create inserts rs and their jobs in one transaction.
func (j *Jobs) create(ctx context.Context, rs []site.Report, idem *site.Idempotency, runAt []time.Time) ([]site.Report, []int64, error) {
	ctx, cancel := j.db.bound(ctx)
	defer cancel()
	rows := make([]reportRow, len(rs))
	for i, r := range rs {
		rows[i] = reportRowFrom(r)
		rows[i].ID, rows[i].Token = 0, site.NewShareToken()
	}
	jobIDs := make([]int64, len(rows))
	err := j.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) (err error) {
		if err := insertReports(ctx, tx, rows, idem); err != nil {
			return err
		}
		for i, row := range rows {
			if jobIDs[i], err = j.Insert(ctx, tx.Tx, row.ID, row.UserID, runAt[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, txErr("create reports with jobs", err)
	}
	out := make([]site.Report, len(rows))
	for i, row := range rows {
		out[i] = row.toDomain()
	}
	return out, jobIDs, nil
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
