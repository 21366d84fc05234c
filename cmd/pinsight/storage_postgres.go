package main

import (
	"context"
	"io"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/memory/memoryfx"
	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/adapters/postgres/postgresfx"
	"github.com/pinsight/pinsight/ports"
)

// postgresStorage (postgres:// or postgresql://) keeps accounts, reports
// and the imported postal directory in PostgreSQL + PostGIS; each instance
// serves the directory from an in-memory replica (postgresReplica). The
// in-process rate limiter counts quotas unless --redis-url shares them.
var postgresStorage = storageBackend{
	serve: func(db databaseConfig, data dataConfig) fx.Option {
		return fx.Options(
			fx.Supply(postgresConfig(db)),
			postgresfx.Module,
			postgresReplica(db, data),
			postgresNotifications,
			memoryfx.RateLimiter,
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
	return postgres.Config{URL: db.URL, ConnectTimeout: db.ConnectTimeout, StatementTimeout: db.StatementTimeout, MaxOpenConns: db.MaxConns,
		DatasetLoadTimeout: db.ReloadTimeout}
}
