package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/ports"
)

// Engine is what an engine package gives the shared store: its
// connections, its statement timeout and how to read its driver's errors.
type Engine struct {
	// Name prefixes the store's error messages ("sqlite", "postgres").
	Name string
	// Read serves reads outside transactions; Write serves writes and every
	// read-write transaction. SQLite hands a pool of read-only connections
	// and its one writing connection (whose transactions start IMMEDIATE);
	// PostgreSQL hands the same pool twice.
	Read, Write *bun.DB
	// Timeout bounds each store operation, waiting for a connection
	// included; the operations of one request share it
	// (ports.WithStoreBudget).
	Timeout time.Duration
	// Unavailable reports whether err means the database cannot be used
	// now (unreachable, locked, out of time) rather than a query error; such
	// errors are wrapped as ports.ErrUnavailable.
	Unavailable func(error) bool
	// UniqueViolation and ForeignKeyViolation recognise the driver's
	// constraint errors.
	UniqueViolation, ForeignKeyViolation func(error) bool
}

// store is what every store type shares: the engine and its dialect, and
// the queue of webhook deliveries, when the store queues them (nil: none).
type store struct {
	e          Engine
	dialect    dialect
	deliveries DeliveryEnqueuer
}

func newStore(e Engine) store { return store{e: e, dialect: dialectOf(e.Write)} }

// bound gives one store operation the statement timeout, shared with the
// request's other operations (ports.BoundStore).
func (s store) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	return ports.BoundStore(ctx, s.e.Timeout)
}

// bulkTimeout bounds one operation whose size grows with the postal
// directory (a release's baseline holds every office): on a loaded machine
// it outlasts the serving timeout, which is for one request's statements.
const bulkTimeout = 5 * time.Minute

// bulk gives one such operation the longer of the engine's timeout and
// bulkTimeout, outside any request's budget; ctx (the start-up's, a
// reload's) still ends it.
func (s store) bulk(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, max(s.e.Timeout, bulkTimeout))
}

// Wrap adds the engine's name and op to a statement's error, marking
// failures to use the database now (Unavailable) as ports.ErrUnavailable.
// A nil error stays nil. It needs only Name and Unavailable, so an engine
// wraps its own statements' errors with it too.
func (e Engine) Wrap(op string, err error) error {
	switch {
	case err == nil:
		return nil
	case !e.Unavailable(err):
		return fmt.Errorf("%s: %s: %w", e.Name, op, err)
	}
	return fmt.Errorf("%w: %s: %v", ports.ErrUnavailable, op, err)
}

// wrap is the engine's Wrap.
func (s store) wrap(op string, err error) error { return s.e.Wrap(op, err) }

// inTx runs fn in a read-write transaction on the writing connection. fn's
// errors are returned as they are, so fn wraps its own statements' errors;
// a failure to begin or commit, or the time running out, is wrapped with op.
func (s store) inTx(ctx context.Context, op string, fn func(ctx context.Context, tx bun.Tx) error) error {
	var inner error
	err := s.e.Write.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		inner = fn(ctx, tx)
		return inner
	})
	if err != nil && inner == nil { // BEGIN or COMMIT failed, or the time ran out
		if ctxErr := ctx.Err(); ctxErr != nil {
			err = fmt.Errorf("%w (%w)", err, ctxErr)
		}
		return s.wrap(op, err)
	}
	return err
}

// missing maps sql.ErrNoRows to notFound (the domain's sentinel) and wraps
// the rest.
func (s store) missing(err error, notFound error, op string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return notFound
	}
	return s.wrap(op, err)
}

// direction is the SQL of a sort direction.
func direction(desc bool) string {
	if desc {
		return "DESC"
	}
	return "ASC"
}
