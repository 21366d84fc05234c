package tests

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// pauseAtCommit is a query hook that freezes the database just before the
// first COMMIT after it is armed: the COMMIT is then sent to a server that
// answers only once it wakes up, and commits then.
type pauseAtCommit struct {
	armed  chan struct{}
	paused chan func() // the unpause of the pause made
	pause  func() func()
}

func (h *pauseAtCommit) BeforeQuery(ctx context.Context, e *bun.QueryEvent) context.Context {
	if e.Query != "COMMIT" {
		return ctx
	}
	select {
	case <-h.armed:
		h.paused <- h.pause()
	default:
	}
	return ctx
}

func (h *pauseAtCommit) AfterQuery(context.Context, *bun.QueryEvent) {}

// TestUnacknowledgedCreateIsUndone stalls the database while a report's
// transaction commits: the client gives up at its deadline and answers
// ErrUnavailable, while the database, woken up, commits the transaction
// it had received. The store then undoes the creation, so the report
// answered as not created never stays: the user has no report.
func TestUnacknowledgedCreateIsUndone(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a database of its own and pauses it (-short)")
	}
	ctx := context.Background()
	c, db := stallableDatabase(t)
	withUsers(t, db, 1)
	hook := &pauseAtCommit{armed: make(chan struct{}, 1), paused: make(chan func(), 1), pause: func() func() { return pauseContainer(t, c) }}
	store := postgres.NewReportStore(db.WithQueryHook(hook))
	count := func() int {
		n, err := db.NewSelect().Table("reports").Where("user_id = 1").Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return int(n)
	}

	hook.armed <- struct{}{}
	now := time.Now()
	_, err := store.CreateReport(ctx, report.Report{UserID: 1, URL: "https://example.com/", Project: "example.com",
		Status: report.StatusPending, CreatedAt: now, UpdatedAt: now, GeneratedAt: now})
	if !errors.Is(err, ports.ErrUnavailable) {
		t.Fatalf("creating a report while the database stalls at COMMIT: %v; want ErrUnavailable", err)
	}
	unpause := <-hook.paused
	unpause()

	seen := false
	woke := time.Now()
	for {
		n := count()
		seen = seen || n > 0
		if n == 0 && time.Since(woke) > 5*time.Second {
			break
		}
		if time.Since(woke) > 2*time.Minute {
			t.Fatalf("2 min after the database woke up the user has %d reports, from a creation answered as failed", n)
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("the stalled COMMIT was applied when the database woke up, then undone: %v", seen)
}
