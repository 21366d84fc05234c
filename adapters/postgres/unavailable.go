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
