package main

import (
	"context"
	"io"
	"sync"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/memory/memoryfx"
	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/adapters/postgres/postgresfx"
	"github.com/pinsight/pinsight/app/appfx"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/ports"
)

// postgresStorage (postgres:// or postgresql://) keeps accounts, reports
// and the imported postal directory in PostgreSQL + PostGIS; the rate
// limiter stays in memory.
var postgresStorage = storageBackend{
	serve: func(db databaseConfig, _ dataConfig) fx.Option {
		return fx.Options(
			fx.Supply(postgresConfig(db)),
			postgresfx.Module,
			fx.Provide(appfx.AsComponent(func(s ports.PostalStore) health.Component { return postalComponent(s) })),
			memoryfx.RateLimiter,
			fx.Invoke(listenReviews),
		)
	},
	migrate: func(ctx context.Context, db databaseConfig, op migrateOp) ([]string, error) {
		return runMigrate(ctx, op, func() (*postgres.DB, error) { return postgres.Open(ctx, postgresConfig(db)) },
			postgres.Migrate, postgres.Rollback, postgres.MigrationStatus)
	},
	accounts: func(ctx context.Context, db databaseConfig) (ports.AccountStore, io.Closer, error) {
		return migratedAccounts(ctx, func() (*postgres.DB, error) { return postgres.Open(ctx, postgresConfig(db)) }, postgres.Migrate,
			func(d *postgres.DB) ports.AccountStore { return postgres.NewAccountStore(d) })
	},
}

func postgresConfig(db databaseConfig) postgres.Config {
	return postgres.Config{URL: db.URL, ConnectTimeout: db.ConnectTimeout, StatementTimeout: db.StatementTimeout, MaxOpenConns: db.MaxConns}
}

// listenReviews relays other instances' review and like writes (NOTIFY
// pinsight_reviews) to the directory's OnCountsChanged hooks while the
// server runs.
func listenReviews(lc fx.Lifecycle, db *postgres.DB, dir *directory.Directory) {
	ctx, cancel := context.WithCancel(context.Background())
	var done sync.WaitGroup
	lc.Append(fx.StartStopHook(func() {
		done.Add(1)
		go func() {
			defer done.Done()
			postgres.ListenReviews(ctx, db, dir.CountsChanged)
		}()
	}, func() {
		cancel()
		done.Wait()
	}))
}
