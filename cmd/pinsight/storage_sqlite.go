package main

import (
	"context"
	"io"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/ports"
)

// sqliteStorage (sqlite:PATH) keeps accounts and reports in one file; the
// postal directory and the rate limiter stay in memory.
var sqliteStorage = storageBackend{
	serve: func(db databaseConfig, data dataConfig) fx.Option {
		return fx.Options(fx.Supply(sqliteConfig(db)), sqlite.Module, memoryPostal(data), memoryRateLimiter)
	},
	migrate: func(ctx context.Context, db databaseConfig, op migrateOp) ([]string, error) {
		return runMigrate(ctx, op, func() (*sqlite.DB, error) { return sqlite.Open(ctx, sqliteConfig(db)) },
			sqlite.Migrate, sqlite.Rollback, sqlite.MigrationStatus)
	},
	accounts: func(ctx context.Context, db databaseConfig) (ports.AccountStore, io.Closer, error) {
		d, err := sqlite.Open(ctx, sqliteConfig(db))
		if err != nil {
			return nil, nil, err
		}
		if _, err := sqlite.Migrate(ctx, d); err != nil {
			_ = d.Close()
			return nil, nil, err
		}
		return sqlite.NewAccountStore(d), d, nil
	},
}

func sqliteConfig(db databaseConfig) sqlite.Config {
	return sqlite.Config{URL: db.URL, BusyTimeout: db.ConnectTimeout, StatementTimeout: db.StatementTimeout, MaxReadConns: db.MaxConns}
}
