package sqlite

import (
	"context"

	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/adapters/riverjobs"
	"github.com/pinsight/pinsight/adapters/sqlstore"
	"github.com/pinsight/pinsight/ports"
)

// Jobs is the durable queue of analyses and webhook deliveries in the
// database file: River's riversqlite driver on the one writing connection
// (the pool size River recommends on SQLite), jobs inserted in the
// transaction that writes their rows. SQLite has no notifications: workers
// poll for due jobs.
type Jobs struct {
	*riverjobs.Queue
	*sqlstore.JobStore
}

// NewJobs returns the queue on db; Migrate must have run.
func NewJobs(db *DB, cfg riverjobs.Config) (*Jobs, error) {
	q, err := riverjobs.New(riversqlite.New(db.write.DB), db.read.DB, cfg)
	if err != nil {
		return nil, err
	}
	j := &Jobs{Queue: q, JobStore: sqlstore.NewJobStore(db.Engine(), q)}
	q.SetSweep(j.Sweep)
	return j, nil
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

// Interface guards.
var (
	_ ports.Jobs         = (*Jobs)(nil)
	_ ports.WebhookQueue = (*Jobs)(nil)
	_ ports.CrawlQueue   = (*Jobs)(nil)
)
