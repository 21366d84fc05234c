package postgres

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
)

// Subscription is what a Listener does for one NOTIFY channel.
type Subscription struct {
	Channel string
	// Notify is called with each notification's payload, in order, on the
	// Listener's goroutine.
	Notify func(payload string)
	// Missed is called after each (re)connection, the first included:
	// notifications sent while no connection listened are lost, so the
	// subscriber catches up (re-reads a version, drops a cache). Optional.
	Missed func()
}

// Listener keeps one connection outside the pool LISTENing on its
// subscriptions' channels, reconnecting after a failure (every
// RetryInterval while the database is unreachable).
type Listener struct {
	db   *DB
	subs []Subscription
	// RetryInterval is the wait between connection attempts (default 1 s).
	RetryInterval time.Duration
	// Logger receives connection losses and recoveries (default slog.Default()).
	Logger *slog.Logger
}

// NewListener returns a listener over db's database; Run starts it.
func NewListener(db *DB, subs ...Subscription) *Listener {
	return &Listener{db: db, subs: subs}
}

// Run listens until ctx ends.
func (l *Listener) Run(ctx context.Context) {
	log := l.Logger
	if log == nil {
		log = slog.Default()
	}
	retry := l.RetryInterval
	if retry <= 0 {
		retry = time.Second
	}
	lost := false
	for ctx.Err() == nil {
		err := l.session(ctx, func() {
			if lost {
				log.Info("listening for notifications again")
				lost = false
			}
		})
		if ctx.Err() != nil {
			return
		}
		if !lost {
			log.Warn("notification listener lost its connection; retrying", "err", err, "retry_every", retry)
			lost = true
		}
		select {
		case <-ctx.Done():
		case <-time.After(retry):
		}
	}
}

// session connects, listens and dispatches until the connection fails.
func (l *Listener) session(ctx context.Context, connected func()) error {
	conn, err := l.db.unboundedConn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	for _, s := range l.subs {
		if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{s.Channel}.Sanitize()); err != nil {
			return err
		}
	}
	connected()
	for _, s := range l.subs {
		if s.Missed != nil {
			s.Missed()
		}
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		for _, s := range l.subs {
			if s.Channel == n.Channel && s.Notify != nil {
				s.Notify(n.Payload)
			}
		}
	}
}
