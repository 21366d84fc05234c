package porttest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// idemLock is how long the suite's requests hold their key.
const idemLock = time.Minute

// newClaim is a claim of key by user at now, as the app makes one.
func newClaim(user int64, key, fingerprint string, now time.Time) report.Idempotency {
	return report.Idempotency{UserID: user, Key: key, Fingerprint: fingerprint, Claim: report.NewShareToken(),
		LockedUntil: now.Add(idemLock), ExpiresAt: now.Add(report.IdempotencyKeyTTL)}
}

// sameIdempotency fails unless got equals want in every field.
func sameIdempotency(t *testing.T, what string, got, want report.Idempotency) {
	t.Helper()
	if got.UserID != want.UserID || got.Key != want.Key || got.Fingerprint != want.Fingerprint || got.Claim != want.Claim ||
		got.Outcome != want.Outcome || !slices.Equal(got.ReportIDs, want.ReportIDs) ||
		!got.LockedUntil.Equal(want.LockedUntil) || !got.ExpiresAt.Equal(want.ExpiresAt) {
		t.Errorf("%s = %+v\nwant %+v", what, got, want)
	}
}

func mustClaim(t *testing.T, s ports.ReportStore, idem report.Idempotency, now time.Time) (report.Idempotency, bool) {
	t.Helper()
	got, claimed, err := s.ClaimIdempotency(context.Background(), idem, now)
	if err != nil {
		t.Fatalf("ClaimIdempotency(%q) = %v", idem.Key, err)
	}
	return got, claimed
}

func countReports(t *testing.T, s ports.ReportStore, user int64) int {
	t.Helper()
	_, total, err := s.Reports(context.Background(), user, report.ReportQuery{SortBy: report.SortReportsByID, Page: paging.Page{Number: 1, PerPage: 10}})
	if err != nil {
		t.Fatal(err)
	}
	return total
}

// testIdempotency checks the idempotency records: claimed once per user
// and key, finished in the reports' transaction, released, taken over
// after their lock, forgotten after their time to live.
func testIdempotency(t *testing.T, s ports.ReportStore, u owners) {
	ctx := context.Background()
	now := reportEpoch

	// A first claim holds the key; a second one gets the first's record.
	first := newClaim(u[1], "order-1", "fp-a", now)
	got, claimed := mustClaim(t, s, first, now)
	if !claimed {
		t.Fatal("the first claim of a key was refused")
	}
	sameIdempotency(t, "first claim", got, first)
	again := newClaim(u[1], "order-1", "fp-b", now.Add(time.Second))
	if got, claimed := mustClaim(t, s, again, now.Add(time.Second)); claimed {
		t.Error("a running request's key was claimed again")
	} else {
		sameIdempotency(t, "claim of a running request's key", got, first)
	}
	// Keys are per user.
	if _, claimed := mustClaim(t, s, newClaim(u[2], "order-1", "fp-a", now), now); !claimed {
		t.Error("another user's key of the same text was refused")
	}

	// The report and the finished record are stored together.
	done := first
	done.Outcome = report.OutcomeCreated
	created, err := s.CreateReports(ctx, []report.Report{newReport(u[1], "https://idem.example/a", 60, 0, report.Private)}, &done)
	if err != nil || len(created) != 1 {
		t.Fatalf("CreateReports with the claim = %v, %v", created, err)
	}
	done.ReportIDs = []int64{created[0].ID}
	later := now.Add(2 * idemLock) // the lock no longer matters once finished
	if got, claimed := mustClaim(t, s, newClaim(u[1], "order-1", "fp-a", later), later); claimed {
		t.Error("a finished request's key was claimed again")
	} else {
		sameIdempotency(t, "claim of a finished request's key", got, done)
	}
	if err := s.ReleaseIdempotency(ctx, first); err != nil {
		t.Fatal(err)
	}
	if _, claimed := mustClaim(t, s, newClaim(u[1], "order-1", "fp-a", later), later); claimed {
		t.Error("ReleaseIdempotency forgot a finished request's key")
	}
	// Finishing it a second time stores nothing.
	if _, err := s.CreateReports(ctx, []report.Report{newReport(u[1], "https://idem.example/dup", 60, 1, report.Private)}, &done); !errors.Is(err, report.ErrClaimLost) {
		t.Errorf("CreateReports under a finished claim err = %v, want report.ErrClaimLost", err)
	}
	if n := countReports(t, s, u[1]); n != 1 {
		t.Errorf("user 1 has %d reports, want 1: a lost claim stored one", n)
	}

	// A failed request releases its key: a retry runs again.
	failed := newClaim(u[1], "order-2", "fp-a", now)
	mustClaim(t, s, failed, now)
	other := failed
	other.Claim = report.NewShareToken()
	if err := s.ReleaseIdempotency(ctx, other); err != nil {
		t.Fatal(err)
	}
	if _, claimed := mustClaim(t, s, newClaim(u[1], "order-2", "fp-a", now), now); claimed {
		t.Error("another claim released the key")
	}
	if err := s.ReleaseIdempotency(ctx, failed); err != nil {
		t.Fatal(err)
	}
	retry := newClaim(u[1], "order-2", "fp-a", now)
	if got, claimed := mustClaim(t, s, retry, now); !claimed {
		t.Error("a released key was refused")
	} else {
		sameIdempotency(t, "claim of a released key", got, retry)
	}

	// A request abandoned past its lock loses its key to a retry, and
	// then cannot finish.
	abandoned := newClaim(u[1], "order-3", "fp-a", now)
	mustClaim(t, s, abandoned, now)
	takeover := newClaim(u[1], "order-3", "fp-a", now.Add(idemLock))
	if got, claimed := mustClaim(t, s, takeover, now.Add(idemLock)); !claimed {
		t.Error("a key held past its lock was refused")
	} else {
		sameIdempotency(t, "claim past the lock", got, takeover)
	}
	abandoned.Outcome = report.OutcomeCreated
	if _, err := s.CreateReports(ctx, []report.Report{newReport(u[1], "https://idem.example/late", 60, 2, report.Private)}, &abandoned); !errors.Is(err, report.ErrClaimLost) {
		t.Errorf("CreateReports under a claim taken over err = %v, want report.ErrClaimLost", err)
	}
	if n := countReports(t, s, u[1]); n != 1 {
		t.Errorf("user 1 has %d reports, want 1", n)
	}

	// Several reports under one key (a batch), in order.
	batch := newClaim(u[1], "batch-1", "fp-batch", now)
	mustClaim(t, s, batch, now)
	batch.Outcome = report.OutcomeAccepted
	var rs []report.Report
	for i := range 3 {
		rs = append(rs, newReport(u[1], fmt.Sprintf("https://idem.example/b%d", i), 50+i, 3+i, report.Private))
	}
	created, err = s.CreateReports(ctx, rs, &batch)
	if err != nil || len(created) != 3 || !(created[0].ID < created[1].ID && created[1].ID < created[2].ID) {
		t.Fatalf("CreateReports of 3 = %v, %v", created, err)
	}
	for i, r := range created {
		if r.URL != rs[i].URL || !report.ValidShareToken(r.Token) {
			t.Errorf("report %d of the batch = %s (token %q), want %s", i, r.URL, r.Token, rs[i].URL)
		}
	}
	batch.ReportIDs = []int64{created[0].ID, created[1].ID, created[2].ID}
	if got, _ := mustClaim(t, s, newClaim(u[1], "batch-1", "x", now), now); !slices.Equal(got.ReportIDs, batch.ReportIDs) {
		t.Errorf("the batch's record lists reports %v, want %v", got.ReportIDs, batch.ReportIDs)
	}

	// After its time to live a key is forgotten, finished or not.
	expired := now.Add(report.IdempotencyKeyTTL)
	for _, key := range []string{"order-1", "batch-1"} {
		fresh := newClaim(u[1], key, "fp-new", expired)
		if got, claimed := mustClaim(t, s, fresh, expired); !claimed {
			t.Errorf("key %s was remembered past its time to live", key)
		} else {
			sameIdempotency(t, "claim of an expired key", got, fresh)
		}
	}
}

// testIdempotencyRace claims one key from many goroutines at once: exactly
// one gets it, the others get its record.
func testIdempotencyRace(t *testing.T, s ports.ReportStore, u owners) {
	const n = 8
	now := reportEpoch
	var wg sync.WaitGroup
	var mu sync.Mutex
	var winners []report.Idempotency
	holders := map[string]bool{}
	for range n {
		wg.Go(func() {
			idem := newClaim(u[1], "race", "fp", now)
			got, claimed, err := s.ClaimIdempotency(context.Background(), idem, now)
			if err != nil {
				t.Errorf("concurrent ClaimIdempotency = %v", err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			holders[got.Claim] = true
			if claimed {
				winners = append(winners, got)
			}
		})
	}
	wg.Wait()
	if len(winners) != 1 || len(holders) != 1 {
		t.Errorf("%d of %d concurrent claims won, %d distinct holders seen; want exactly one", len(winners), n, len(holders))
	}
}
