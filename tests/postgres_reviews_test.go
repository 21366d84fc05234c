package tests

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/review"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

func TestPostgresReviewStore(t *testing.T) {
	porttest.TestReviewStore(t, func(t *testing.T) ports.ReviewStore {
		db, _ := newDatabase(t)
		withUsers(t, db, 3) // the suite's reviews belong to users 1 to 3; reviews reference users
		return postgres.NewReviewStore(db)
	})
}

// TestPostgresReviewAnnouncements: a review written through one handle is
// announced (NOTIFY pinsight_reviews) to a listener on another, as another
// instance's would be, with its pincode.
func TestPostgresReviewAnnouncements(t *testing.T) {
	db, url := newDatabase(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	withUsers(t, db, 1)
	other, err := postgres.Open(ctx, postgres.Config{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	got := make(chan postal.Pincode, 10)
	done := make(chan struct{})
	go func() {
		defer close(done)
		postgres.NewListener(other, postgres.ReviewsSubscription(func(pin postal.Pincode) { got <- pin })).Run(ctx)
	}()
	store := postgres.NewReviewStore(db)
	office := review.Office{Pincode: "800001", NameKey: "patna", OfficeType: "HO"}
	// The listener connects asynchronously: write until one announcement arrives.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if _, err := store.SetLike(ctx, 1, office, true); err != nil {
			t.Fatal(err)
		}
		if _, err := store.SetLike(ctx, 1, office, false); err != nil {
			t.Fatal(err)
		}
		select {
		case pin := <-got:
			if pin == "" {
				continue // the catch-up call after connecting: every pincode
			}
			if pin != "800001" {
				t.Fatalf("announced %q, want 800001", pin)
			}
			cancel()
			<-done
			return
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("no announcement within 2 min")
		}
	}
}

// withUsers creates users 1 to n in a fresh database.
func withUsers(t testing.TB, db *postgres.DB, n int) {
	t.Helper()
	acc := postgres.NewAccountStore(db)
	for i := 1; i <= n; i++ {
		u, err := acc.CreateUser(context.Background(), account.User{Email: fmt.Sprintf("u%d@example.com", i), CreatedAt: time.Now()})
		if err != nil || u.ID != int64(i) {
			t.Fatalf("user %d = %+v, %v", i, u, err)
		}
	}
}

// BenchmarkPostgresReviewCounts is porttest.BenchmarkReviewCounts on
// Postgres: go test ./tests -run '^$' -bench PostgresReviewCounts -benchmem
func BenchmarkPostgresReviewCounts(b *testing.B) {
	porttest.BenchmarkReviewCounts(b, func(tb testing.TB) ports.ReviewStore {
		db, _ := newDatabase(tb)
		withUsers(tb, db, 3)
		return postgres.NewReviewStore(db)
	})
}
