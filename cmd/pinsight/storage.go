package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/ports"
)

// databaseConfig is the storage-neutral database configuration of serve,
// migrate, import and user: the URL's scheme chooses the storage.
type databaseConfig struct {
	URL              string
	ConnectTimeout   time.Duration
	StatementTimeout time.Duration
	MaxConns         int
	// ReloadTimeout and ReloadSpread are serve's settings of the Postgres
	// directory replica (replicaFlags).
	ReloadTimeout, ReloadSpread time.Duration
	// Server is set by serve: the process serves the API from the
	// database, so a storage that cannot keep several instances' caches
	// coherent (SQLite) refuses a second server on the same database.
	Server bool
}

// defaultDatabaseURL keeps accounts and reports in a file of the working
// directory (with its -wal and -shm siblings).
const defaultDatabaseURL = "sqlite:pinsight.db"

// databaseFlags adds the storage flags shared by serve, migrate, import and
// user.
func databaseFlags(f *pflag.FlagSet, cfg *databaseConfig) {
	f.StringVar(&cfg.URL, "database-url", defaultDatabaseURL,
		"storage of accounts, reports and reviews: sqlite:PATH (a file; relative to the working directory, or sqlite:/abs/path.db), postgres://... (or postgresql://), memory: (lost on exit)")
	f.DurationVar(&cfg.ConnectTimeout, "database-connect-timeout", 5*time.Second, "time to connect to Postgres, or to wait for another process's lock on the SQLite file")
	f.DurationVar(&cfg.StatementTimeout, "database-statement-timeout", 10*time.Second, "time a request (or one background operation) may wait on the database in all; beyond, 503")
	f.IntVar(&cfg.MaxConns, "database-max-conns", 10, "maximum open database connections (SQLite: reading ones; one more writes)")
}

// storageBackend is what one --database-url scheme selects.
type storageBackend struct {
	// serve provides the account, report and postal stores, the rate
	// limiter and the storage's readiness components.
	serve func(db databaseConfig, data dataConfig) fx.Option
	// migrate runs `pinsight migrate`; nil when the storage has no schema.
	migrate func(ctx context.Context, db databaseConfig, op migrateOp) ([]string, error)
	// accounts opens the account store for `pinsight user`, migrated, and
	// what closes it; nil when accounts live only inside a running server.
	accounts func(ctx context.Context, db databaseConfig) (ports.AccountStore, io.Closer, error)
}

// backends maps each --database-url scheme to its storage. Adding an
// adapter is one file (storage_NAME.go) and one line here.
var backends = map[string]storageBackend{
	"memory":     memoryStorage,
	"sqlite":     sqliteStorage,
	"postgres":   postgresStorage,
	"postgresql": postgresStorage,
}

// errEmptyDatabaseURL refuses an explicitly empty --database-url (or
// PINSIGHT_DATABASE_URL): a variable left empty by mistake must not quietly
// give a server that forgets everything on restart.
var errEmptyDatabaseURL = errors.New("--database-url (PINSIGHT_DATABASE_URL) is empty: name the storage, " +
	defaultDatabaseURL + " (the default), postgres://... or memory: (keeps nothing across restarts)")

// backendFor returns the storage of a --database-url and its scheme.
func backendFor(rawURL string) (string, storageBackend, error) {
	if rawURL == "" {
		return "", storageBackend{}, errEmptyDatabaseURL
	}
	scheme, _, found := strings.Cut(rawURL, ":")
	scheme = strings.ToLower(scheme)
	b, known := backends[scheme]
	switch {
	case !found || strings.ContainsAny(scheme, `/\.`):
		return "", storageBackend{}, fmt.Errorf("--database-url %q has no scheme (known: %s); for a file, write sqlite:%s", rawURL, knownSchemes(), rawURL)
	case !known:
		return "", storageBackend{}, fmt.Errorf("--database-url scheme %q is not known; known: %s", scheme+":", knownSchemes())
	}
	return scheme, b, nil
}

// knownSchemes lists the schemes for error messages.
func knownSchemes() string {
	names := make([]string, 0, len(backends))
	for s := range backends {
		names = append(names, s+":")
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// migratedAccounts opens a database, applies its migrations and returns
// the account store on it, with what closes it.
func migratedAccounts[DB io.Closer](ctx context.Context, open func() (DB, error), migrate func(context.Context, DB) ([]string, error),
	store func(DB) ports.AccountStore) (ports.AccountStore, io.Closer, error) {
	db, err := open()
	if err != nil {
		return nil, nil, err
	}
	if _, err := migrate(ctx, db); err != nil {
		_ = db.Close()
		return nil, nil, err
	}
	return store(db), db, nil
}
