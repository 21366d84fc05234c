// Package sqlite implements the account and report ports with bun on SQLite
// (the pure-Go modernc.org/sqlite driver: no cgo), in one database file: the
// default, durable storage of a single server. The file is in WAL mode with
// foreign keys on; one connection writes and a pool of read-only connections
// reads, so readers never wait for the writer and two writers never race
// for SQLite's write lock.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver

	"github.com/pinsight/pinsight/ports"
)

// Config holds the database settings.
type Config struct {
	// URL names the file: sqlite:relative/path.db (relative to the working
	// directory), sqlite:/abs/path.db or sqlite:///abs/path.db.
	URL string
	// BusyTimeout is how long a statement waits for a lock another process
	// holds on the file before failing with ErrUnavailable (default 5 s).
	BusyTimeout time.Duration
	// StatementTimeout bounds each store operation, waiting for the writer
	// included (default 10 s): a stalled disk gives 503, not a hang.
	StatementTimeout time.Duration
	// MaxReadConns sizes the pool of read-only connections (default 4).
	MaxReadConns int
	// Exclusive makes Connect take an exclusive advisory lock (flock) on a
	// sidecar file, the database's path plus "-serve.lock" (owner-only,
	// holding the pid), held until Close: a second DB with Exclusive on the
	// same file, in this process or another, fails to connect with an
	// error naming the holder's pid. DBs without it neither take nor heed
	// the lock. On systems without flock(2) it locks nothing.
	Exclusive bool
}

// ErrUnavailable wraps failures to use the database now (locked beyond the
// busy timeout, an I/O error, a full disk, a timeout); it is
// ports.ErrUnavailable, so transports map it to 503.
var ErrUnavailable = ports.ErrUnavailable

// DB is an open database file: write is its only writing connection (every
// write transaction starts IMMEDIATE, taking SQLite's write lock at once),
// read a pool of read-only connections.
type DB struct {
	write, read *bun.DB
	path        string
	timeout     time.Duration
	exclusive   bool
	lock        *os.File // the sidecar lock file while Exclusive holds it
}

// Path returns the database file's absolute path (as given in the URL when
// it cannot be made absolute).
func (db *DB) Path() string { return absPath(db.path) }

// absPath is path made absolute, or as it is when it cannot be.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// AddQueryHook adds a bun query hook (tracing, logging) to the writing
// and the reading connections. Add hooks before the database is used: the
// call is not safe with queries running.
func (db *DB) AddQueryHook(h bun.QueryHook) {
	db.write = db.write.WithQueryHook(h)
	db.read = db.read.WithQueryHook(h)
}

// Open opens (creating it when absent, readable by its owner only) the
// database file cfg.URL names and checks that it is a database: New, then
// Connect. The file's directory must exist: a missing one is an error
// naming it.
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

// New returns a handle on the database file cfg.URL names without touching
// the file yet: Connect does. An invalid URL is an error.
func New(cfg Config) (*DB, error) {
	path, err := ParseURL(cfg.URL)
	if err != nil {
		return nil, err
	}
	cfg = withDefaults(cfg)
	db := &DB{path: path, timeout: cfg.StatementTimeout, exclusive: cfg.Exclusive}
	busy := fmt.Sprintf("_pragma=busy_timeout(%d)", cfg.BusyTimeout.Milliseconds())
	// synchronous=NORMAL in WAL mode: a commit survives a crash of the
	// process; a power loss may lose the last commits but never corrupts
	// the file.
	db.write, err = newPool(path, 1,
		busy, "_pragma=journal_mode(WAL)", "_pragma=synchronous(NORMAL)", "_pragma=foreign_keys(1)", "_txlock=immediate")
	if err != nil {
		return nil, err
	}
	if db.read, err = newPool(path, cfg.MaxReadConns, busy, "_pragma=query_only(1)"); err != nil {
		_ = db.write.Close()
		return nil, err
	}
	return db, nil
}

// Connect creates the file when absent (readable by its owner only) and
// checks that it is a database, within the statement timeout. journal_mode
// is a property of the file: the writer sets it before any reader opens.
// With Config.Exclusive it first takes the file's lock (see Exclusive).
func (db *DB) Connect(ctx context.Context) error {
	if err := prepareFile(db.path); err != nil {
		return err
	}
	if db.exclusive && db.lock == nil {
		lock, err := takeLock(db.path)
		if err != nil {
			return err
		}
		db.lock = lock
	}
	ctx, cancel := context.WithTimeout(ctx, db.timeout)
	defer cancel()
	for _, pool := range []*bun.DB{db.write, db.read} {
		if err := pool.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(new(int)); err != nil {
			return wrap("open "+db.path, err)
		}
	}
	return nil
}

func withDefaults(cfg Config) Config {
	if cfg.BusyTimeout <= 0 {
		cfg.BusyTimeout = 5 * time.Second
	}
	if cfg.StatementTimeout <= 0 {
		cfg.StatementTimeout = 10 * time.Second
	}
	if cfg.MaxReadConns <= 0 {
		cfg.MaxReadConns = 4
	}
	return cfg
}

// ParseURL returns the file path a sqlite: URL names. The path is taken as
// written (no percent-decoding, no query parameters): sqlite:data/p.db is
// relative to the working directory, sqlite:/var/lib/p.db and
// sqlite:///var/lib/p.db are absolute.
func ParseURL(raw string) (string, error) {
	const scheme = "sqlite:"
	if len(raw) < len(scheme) || !strings.EqualFold(raw[:len(scheme)], scheme) {
		return "", fmt.Errorf("sqlite: %q is not a sqlite: URL (sqlite:relative.db or sqlite:/abs/path.db)", raw)
	}
	rest := raw[len(scheme):]
	if after, ok := strings.CutPrefix(rest, "//"); ok {
		if !strings.HasPrefix(after, "/") {
			return "", fmt.Errorf("sqlite: %q names a host, not a file: write sqlite:relative.db or sqlite:/abs/path.db", raw)
		}
		rest = after
	}
	if rest == "" || strings.HasSuffix(rest, "/") {
		return "", fmt.Errorf("sqlite: %q names no file: write sqlite:relative.db or sqlite:/abs/path.db", raw)
	}
	if strings.ContainsRune(rest, 0) {
		return "", fmt.Errorf("sqlite: %q: a file name cannot hold NUL", raw)
	}
	return rest, nil
}

// prepareFile checks the directory and creates the file, owner-only, when
// it does not exist yet (SQLite gives its -wal and -shm files the same
// permissions).
func prepareFile(path string) error {
	dir := filepath.Dir(path)
	switch st, err := os.Stat(dir); {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("sqlite: the directory %s of %s does not exist: create it, or name another file", dir, path)
	case err != nil:
		return fmt.Errorf("sqlite: %w", err)
	case !st.IsDir():
		return fmt.Errorf("sqlite: %s (the directory of %s) is not a directory", dir, path)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	switch {
	case err == nil:
		return f.Close()
	case errors.Is(err, fs.ErrExist):
		return nil
	}
	return fmt.Errorf("sqlite: create %s: %w", path, err)
}

// newPool is a pool of up to n connections on path with the given DSN
// parameters; it connects on first use.
func newPool(path string, n int, params ...string) (*bun.DB, error) {
	sqldb, err := sql.Open("sqlite", fileURI(path)+"?"+strings.Join(params, "&"))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	sqldb.SetMaxOpenConns(n)
	sqldb.SetMaxIdleConns(n)
	sqldb.SetConnMaxLifetime(0)
	return bun.NewDB(sqldb, sqlitedialect.New()), nil
}

// fileURI is path as an SQLite file: URI, the characters URIs give a
// meaning escaped.
func fileURI(path string) string {
	return "file:" + strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(filepath.Clean(path))
}

// Close runs SQLite's recommended PRAGMA optimize, then closes both pools
// (the last connection to close checkpoints the WAL into the file), then
// releases the Exclusive lock.
func (db *DB) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), db.timeout)
	defer cancel()
	_, _ = db.write.ExecContext(ctx, "PRAGMA optimize")
	err := errors.Join(db.read.Close(), db.write.Close())
	if db.lock != nil {
		err = errors.Join(err, db.lock.Close())
		db.lock = nil
	}
	return err
}

// Ping checks within 2 seconds that the file can be read and written to.
func Ping(ctx context.Context, db *DB) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := db.read.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(new(int)); err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	// The write lock, taken and given back at once (an empty IMMEDIATE
	// transaction): a file another process holds locked reads fine but
	// takes no write.
	if err := db.write.RunInTx(ctx, nil, func(context.Context, bun.Tx) error { return nil }); err != nil {
		return fmt.Errorf("%w: take the write lock: %v", ErrUnavailable, err)
	}
	return nil
}

// inTx runs fn in a write transaction (IMMEDIATE: it holds SQLite's write
// lock from the start). fn's errors are returned as they are, so fn wraps
// its own statements' errors; a failure to begin or commit, or the time
// running out, is wrapped with op.
func (db *DB) inTx(ctx context.Context, op string, fn func(ctx context.Context, tx bun.Tx) error) error {
	var inner error
	err := db.write.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		inner = fn(ctx, tx)
		return inner
	})
	if err != nil && inner == nil { // BEGIN or COMMIT failed, or the time ran out
		if ctxErr := ctx.Err(); ctxErr != nil {
			err = fmt.Errorf("%w (%w)", err, ctxErr)
		}
		return wrap(op, err)
	}
	return err
}
