package postgres

import "context"

// Advisory lock keys (pg_advisory_lock): one per kind of exclusive work.
const (
	// migrateLockKey serialises migrations across processes.
	migrateLockKey = 0x70696e736d6967 // "pinsmig"
)

// withAdvisoryLock runs fn while holding the session advisory lock key,
// waiting for it as long as ctx allows (no statement timeout applies to
// the wait). The lock is taken on a connection of its own, outside the
// pool, closed afterwards: the lock can never outlive fn on a pooled
// connection, and a process killed while holding it loses it with its
// connection, so nobody waits on a stale lock.
func withAdvisoryLock(ctx context.Context, db *DB, key int64, fn func() error) error {
	conn, err := db.unboundedConn(ctx)
	if err != nil {
		return wrap("lock", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", key); err != nil {
		return wrap("lock", err)
	}
	return fn()
}
