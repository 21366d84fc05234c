// Package postgres implements the ports with bun on PostgreSQL + PostGIS:
// stores, embedded migrations and bulk import.
package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"time"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/migrate"

	"github.com/pinsight/pinsight/adapters/postgres/migrations"
	"github.com/pinsight/pinsight/adapters/sqlstore"
	"github.com/pinsight/pinsight/ports"
)

// Config holds the connection settings.
type Config struct {
	URL            string        // postgres://user:pass@host:port/db?sslmode=disable
	ConnectTimeout time.Duration // default 5 s
	// StatementTimeout bounds each store operation (default 10 s), on both
	// sides: the server cancels a statement running longer, and the client
	// gives up waiting then, for a free connection, a new connection or an
	// answer, so a stalled or unreachable database gives 503, not a hang.
	StatementTimeout time.Duration
	MaxOpenConns     int // default 10
	// DatasetLoadTimeout bounds LoadDataset as a whole (default
	// DefaultDatasetLoadTimeout), on both sides, instead of
	// StatementTimeout: reading the whole directory takes far longer than
	// one serving operation, the more so on a busy server.
	DatasetLoadTimeout time.Duration
}

// DefaultDatasetLoadTimeout is Config.DatasetLoadTimeout's default.
const DefaultDatasetLoadTimeout = 2 * time.Minute

// DB is an open database: the bun handle, and the time one store operation
// may take (Config.StatementTimeout).
type DB struct {
	*bun.DB
	timeout        time.Duration
	loadTimeout    time.Duration // LoadDataset's budget
	connectTimeout time.Duration
	dsn            string // for the connections held outside the pool (locks, LISTEN, imports)
}

// unboundedConn opens a connection of its own, outside the pool, with no
// statement timeout from its first statement on (a startup parameter, not
// a SET that would itself run under the serving timeout): for work that
// may rightly outlast one serving operation (a lock's wait, LISTEN, a bulk
// import). Connecting is bounded by the connect timeout; the caller closes
// the connection.
func (db *DB) unboundedConn(ctx context.Context) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(db.dsn)
	if err != nil {
		return nil, err
	}
	cfg.RuntimeParams["statement_timeout"] = "0"
	cctx, cancel := context.WithTimeout(ctx, db.connectTimeout+time.Second)
	defer cancel()
	return pgx.ConnectConfig(cctx, cfg)
}

// bound gives one store operation its deadline, shared with the request's
// other operations (ports.BoundStore). A stalled server (a
// paused process, a dropped network) never answers: the deadline is what
// ends the wait, pgx then closing the connection it was waiting on.
func (db *DB) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	return ports.BoundStore(ctx, db.timeout)
}

// WithQueryHook returns a handle on the same pool that also calls hook.
func (db *DB) WithQueryHook(hook bun.QueryHook) *DB {
	return &DB{DB: db.DB.WithQueryHook(hook), timeout: db.timeout, loadTimeout: db.loadTimeout, connectTimeout: db.connectTimeout, dsn: db.dsn}
}

// ErrUnavailable wraps failures to reach the database; it is
// ports.ErrUnavailable, so transports map it to 503.
var ErrUnavailable = ports.ErrUnavailable

// Open connects, checks the connection and returns the handle: New, then
// Connect. The statement timeout and connect timeout are set on every
// connection.
func Open(ctx context.Context, cfg Config) (*DB, error) {
	db, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if err := db.Connect(ctx); err != nil {
		_ = db.Close()
		return nil, err
	}
	return db, nil
}

// New returns a handle on the database cfg names without connecting yet:
// Connect (or the first store operation) does. An invalid URL is an error.
func New(cfg Config) (*DB, error) {
	cfg = withDefaults(cfg)
	dsn, err := withTimeouts(cfg)
	if err != nil {
		return nil, err
	}
	sqldb, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	sqldb.SetMaxOpenConns(max(cfg.MaxOpenConns, 1))
	sqldb.SetMaxIdleConns(max(cfg.MaxOpenConns, 1))
	sqldb.SetConnMaxIdleTime(5 * time.Minute)
	return &DB{DB: bun.NewDB(sqldb, pgdialect.New()), timeout: cfg.StatementTimeout, loadTimeout: cfg.DatasetLoadTimeout,
		connectTimeout: cfg.ConnectTimeout, dsn: dsn}, nil
}

// Connect checks, within the connect timeout, that the database answers;
// ErrUnavailable when it does not.
func (db *DB) Connect(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, db.connectTimeout+time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return nil
}

func withDefaults(cfg Config) Config {
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = 5 * time.Second
	}
	if cfg.StatementTimeout <= 0 {
		cfg.StatementTimeout = 10 * time.Second
	}
	if cfg.DatasetLoadTimeout <= 0 {
		cfg.DatasetLoadTimeout = DefaultDatasetLoadTimeout
	}
	return cfg
}

// withTimeouts adds connect_timeout and statement_timeout to the URL unless
// it sets them.
func withTimeouts(cfg Config) (string, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return "", fmt.Errorf("postgres: the URL must start with postgres:// or postgresql://")
	}
	q := u.Query()
	if q.Get("connect_timeout") == "" {
		q.Set("connect_timeout", fmt.Sprint(int(cfg.ConnectTimeout.Seconds())))
	}
	if q.Get("statement_timeout") == "" {
		q.Set("statement_timeout", fmt.Sprint(cfg.StatementTimeout.Milliseconds()))
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// Migrate applies every pending embedded migration and returns the names
// applied. It runs under a Postgres advisory lock (see withAdvisoryLock),
// waiting for it: instances starting together migrate one after the other,
// and one killed midway leaves no stale lock behind (bun's own lock is a
// row that a crash would leave). A migration is recorded only once it
// succeeded. River's migrations (the job queue) follow under the same
// lock; their names are not returned.
func Migrate(ctx context.Context, db *DB) ([]string, error) {
	var names []string
	err := withAdvisoryLock(ctx, db, migrateLockKey, func() error {
		m := migrate.NewMigrator(db.DB, migrations.Migrations, migrate.WithMarkAppliedOnSuccess(true))
		if err := m.Init(ctx); err != nil {
			return fmt.Errorf("postgres: init migrations: %w", err)
		}
		group, err := m.Migrate(ctx)
		if err != nil {
			return fmt.Errorf("postgres: migrate: %w", err)
		}
		for _, mg := range group.Migrations {
			names = append(names, mg.Name)
		}
		_, err = migrateRiver(ctx, db, false)
		return err
	})
	return names, err
}

// Rollback reverts the last group of migrations, under the migrations'
// advisory lock; once none of ours is left, it reverts River's and
// returns their names.
func Rollback(ctx context.Context, db *DB) ([]string, error) {
	var names []string
	err := withAdvisoryLock(ctx, db, migrateLockKey, func() error {
		m := migrate.NewMigrator(db.DB, migrations.Migrations)
		group, err := m.Rollback(ctx)
		if err != nil {
			return fmt.Errorf("postgres: rollback: %w", err)
		}
		if len(group.Migrations) == 0 { // ours are all reverted: River's go last
			names, err = migrateRiver(ctx, db, true)
			return err
		}
		for _, mg := range group.Migrations {
			names = append(names, mg.Name)
		}
		return nil
	})
	return names, err
}

// MigrationStatus lists every known migration and whether it ran.
func MigrationStatus(ctx context.Context, db *DB) ([]string, error) {
	return sqlstore.MigrationStatus(ctx, migrate.NewMigrator(db.DB, migrations.Migrations))
}

// Ping checks that the database answers within 2 seconds.
func Ping(ctx context.Context, db *DB) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return nil
}
