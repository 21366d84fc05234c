package postgres

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pinsight/pinsight/domain/postal"
)

// ListenReviews calls changed with the pincode of each review or like
// written by any instance (NOTIFY pinsight_reviews, sent on commit) until
// ctx ends, on a connection of its own outside the pool. When the
// connection fails it reconnects (waiting up to 30 s between tries) and
// then calls changed with "" - every pincode - since announcements may have
// been missed meanwhile. changed must not block.
func ListenReviews(ctx context.Context, db *DB, changed func(pin postal.Pincode)) {
	wait := time.Second
	for first := true; ctx.Err() == nil; first = false {
		listened, err := listenOnce(ctx, db, changed, !first)
		if ctx.Err() != nil {
			return
		}
		if listened { // it worked for a while: try again soon
			wait = time.Second
		}
		slog.WarnContext(ctx, "review announcements lost; reconnecting", "err", err, "in", wait)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(wait*2, 30*time.Second)
	}
}

// listenOnce listens on one connection until it fails, saying whether it
// got as far as listening; resumed says announcements may have been missed
// before it listened.
func listenOnce(ctx context.Context, db *DB, changed func(postal.Pincode), resumed bool) (bool, error) {
	cctx, cancel := context.WithTimeout(ctx, db.connectTimeout+time.Second)
	conn, err := pgx.Connect(cctx, db.dsn)
	cancel()
	if err != nil {
		return false, err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+ReviewsChannel); err != nil {
		return false, err
	}
	if resumed {
		changed("")
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return true, err
		}
		changed(postal.Pincode(n.Payload))
	}
}
