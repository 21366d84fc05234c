package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/pinsight/pinsight/adapters/sqlstore"
)

// isUnavailable reports whether err means the database cannot be reached or
// cannot answer now (down, restarting, unreachable, too slow), as opposed to
// a query or programming error.
func isUnavailable(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false // the caller went away
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case strings.HasPrefix(pgErr.Code, "08"): // connection exception
			return true
		case pgErr.Code == "57014", pgErr.Code == "57P01", pgErr.Code == "57P02", pgErr.Code == "57P03", pgErr.Code == "53300":
			// statement timeout, admin / crash shutdown, cannot connect now, too many connections
			return true
		}
		return false
	}
	var netErr net.Error
	var connErr *pgconn.ConnectError
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &netErr) || errors.As(err, &connErr) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, driver.ErrBadConn) ||
		errors.Is(err, sql.ErrConnDone) || pgconn.SafeToRetry(err) || pgconn.Timeout(err)
}

// errs reads the engine's errors: the part of its sqlstore.Engine that
// needs no connection.
var errs = sqlstore.Engine{Name: "postgres", Unavailable: isUnavailable,
	UniqueViolation: isUniqueViolation, ForeignKeyViolation: isForeignKeyViolation}

// wrap adds context to a statement's error, marking failures to use the
// database now as ErrUnavailable (errs.Wrap).
func wrap(op string, err error) error { return errs.Wrap(op, err) }

func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}

func isForeignKeyViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23503"
}
