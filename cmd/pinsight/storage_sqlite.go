package main

import (
	"context"
	"io"
	"log/slog"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/memory/memoryfx"
	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/adapters/sqlite/sqlitefx"
	"github.com/pinsight/pinsight/ports"
)

// sqliteStorage (sqlite:PATH) keeps accounts and reports in one file; the
// postal directory and the rate limiter stay in memory. A serve process
// locks the file against a second serve (its caches of API keys could not
// learn of the other's revocations); worker and the brief commands (user,
// migrate) neither take nor heed that lock.
var sqliteStorage = storageBackend{
	serve: func(db databaseConfig, data dataConfig) fx.Option {
		return fx.Options(fx.Supply(sqliteConfig(db)), sqlitefx.Module, memoryPostal(data), memoryfx.RateLimiter,
			fx.Invoke(func(db *sqlite.DB, log *slog.Logger) { log.Info("accounts and reports in SQLite", "file", db.Path()) }))
	},
	migrate: func(ctx context.Context, db databaseConfig, op migrateOp) ([]string, error) {
		return runMigrate(ctx, op, func() (*sqlite.DB, error) { return sqlite.Open(ctx, sqliteConfig(db)) },
			sqlite.Migrate, sqlite.Rollback, sqlite.MigrationStatus)
	},
	accounts: func(ctx context.Context, db databaseConfig) (ports.AccountStore, io.Closer, error) {
		return migratedAccounts(ctx, func() (*sqlite.DB, error) { return sqlite.Open(ctx, sqliteConfig(db)) }, sqlite.Migrate,
			func(d *sqlite.DB) ports.AccountStore { return sqlite.NewAccountStore(d) })
	},
}

func sqliteConfig(db databaseConfig) sqlite.Config {
	return sqlite.Config{URL: db.URL, BusyTimeout: db.ConnectTimeout, StatementTimeout: db.StatementTimeout, MaxReadConns: db.MaxConns,
		Exclusive: db.Server}
}
