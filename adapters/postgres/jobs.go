package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/adapters/riverjobs"
	"github.com/pinsight/pinsight/adapters/sqlstore"
	"github.com/pinsight/pinsight/ports"
)

// Jobs is the durable queue of analyses and webhook deliveries in PostgreSQL: River's
// riverdatabasesql driver on the pool bun uses (pgx's stdlib), so a job is
// inserted with the *sql.Tx that writes its report, with a small pgx pool
// of its own for LISTEN: workers hear of new jobs at once, on every
// instance, instead of polling.
type Jobs struct {
	*riverjobs.Queue
	*sqlstore.JobStore
	listen *pgxpool.Pool
}

// NewJobs returns the queue on db; Migrate must have run. Its listening
// pool connects on first use and is closed by Stop.
func NewJobs(db *DB, cfg riverjobs.Config) (*Jobs, error) {
	pcfg, err := pgxpool.ParseConfig(db.dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres: job queue: %w", err)
	}
	// River hijacks one connection of this pool for its LISTEN and keeps
	// it (it then no longer counts against the pool): one is enough.
	pcfg.MaxConns = 1
	listen, err := pgxpool.NewWithConfig(context.Background(), pcfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: job queue: %w", err)
	}
	q, err := riverjobs.New(riverdatabasesql.NewWithPgxListener(db.DB.DB, listen), db.DB.DB, cfg)
	if err != nil {
		listen.Close()
		return nil, err
	}
	j := &Jobs{Queue: q, JobStore: sqlstore.NewJobStore(db.Engine(), q), listen: listen}
	q.SetSweep(j.Sweep)
	return j, nil
}

// Stop implements ports.Jobs, then closes the listening pool.
func (j *Jobs) Stop(ctx context.Context) error {
	err := j.Queue.Stop(ctx)
	j.listen.Close()
	return err
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

// Interface guards.
var (
	_ ports.Jobs         = (*Jobs)(nil)
	_ ports.WebhookQueue = (*Jobs)(nil)
	_ ports.CrawlQueue   = (*Jobs)(nil)
)
