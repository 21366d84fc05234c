package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/domain/report"
)

// TestIdempotencyPurge: a claim deletes every user's expired keys, not only
// the one it replaces, so the table holds at most a day of keys.
func TestIdempotencyPurge(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	db := openFile(t, path)
	withUsers(t, db, 2)
	store := sqlite.NewReportStore(db)
	t0 := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	claim := func(user int64, key string, now time.Time) {
		t.Helper()
		idem := report.Idempotency{UserID: user, Key: key, Fingerprint: "fp", Claim: report.NewShareToken(),
			LockedUntil: now.Add(time.Minute), ExpiresAt: now.Add(report.IdempotencyKeyTTL)}
		if _, claimed, err := store.ClaimIdempotency(ctx, idem, now); err != nil || !claimed {
			t.Fatalf("claim %d/%s = %v, %v", user, key, claimed, err)
		}
	}
	claim(1, "a", t0)
	claim(2, "b", t0)
	claim(1, "c", t0.Add(time.Hour))
	claim(2, "d", t0.Add(report.IdempotencyKeyTTL))
	var keys []string
	rows, err := rawDB(t, path).Query("SELECT key FROM idempotency_keys ORDER BY key")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		_ = rows.Scan(&k)
		keys = append(keys, k)
	}
	if len(keys) != 2 || keys[0] != "c" || keys[1] != "d" {
		t.Errorf("keys left after a claim a day later: %v, want [c d] (a and b expired)", keys)
	}
}
