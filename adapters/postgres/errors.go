package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
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

// wrap adds context, marking connection failures as ErrUnavailable.
func wrap(op string, err error) error {
	if !isUnavailable(err) {
		return fmt.Errorf("postgres: %s: %w", op, err)
	}
	return fmt.Errorf("%w: %s: %v", ErrUnavailable, op, err)
}

func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}

func isForeignKeyViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23503"
}
