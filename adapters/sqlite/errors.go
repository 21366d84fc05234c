package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"

	"github.com/pinsight/pinsight/adapters/sqlstore"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// errs reads the engine's errors: the part of its sqlstore.Engine that
// needs no connection.
var errs = sqlstore.Engine{Name: "sqlite", Unavailable: isUnavailable,
	UniqueViolation: isUniqueViolation, ForeignKeyViolation: isForeignKeyViolation}

// wrap adds context to a statement's error, marking failures to use the
// database now as ErrUnavailable (errs.Wrap).
func wrap(op string, err error) error { return errs.Wrap(op, err) }

// isUnavailable reports whether err means the database cannot be used now
// (locked by another process beyond the busy timeout, an I/O error, a full
// disk or a read-only file, the operation's time up) as opposed to a query
// or programming error. A caller that went away is not the database's fault.
func isUnavailable(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) {
		return true
	}
	switch code(err) & 0xff { // the primary result code
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL,
		sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PROTOCOL, sqlite3.SQLITE_NOMEM:
		return true
	}
	return false
}

// code is err's SQLite extended result code, 0 when err is not SQLite's.
func code(err error) int {
	var e *sqlite.Error
	if errors.As(err, &e) {
		return e.Code()
	}
	return 0
}

func isUniqueViolation(err error) bool {
	return code(err) == sqlite3.SQLITE_CONSTRAINT_UNIQUE
}

func isForeignKeyViolation(err error) bool {
	return code(err) == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY
}
