package accounts_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/ports"
)

// countingStore counts the key lookups (each of which marks the key used).
type countingStore struct {
	ports.AccountStore
	mu      sync.Mutex
	lookups int
}

func (s *countingStore) KeyByHash(ctx context.Context, hash string, now time.Time) (account.APIKey, error) {
	s.mu.Lock()
	s.lookups++
	s.mu.Unlock()
	return s.AccountStore.KeyByHash(ctx, hash, now)
}

func (s *countingStore) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lookups
}

// TestVerifiedKeysAreCached: a key is looked up (and marked used) once per
// KeyCacheTTL however many requests carry it; a revocation through the
// same Accounts is refused at once; one through another instance is
// refused once Forget (or ForgetAll) tells, and after the TTL anyway.
func TestVerifiedKeysAreCached(t *testing.T) {
	ctx := context.Background()
	store := &countingStore{AccountStore: memory.NewAccountStore()}
	pw := accounts.NewPasswords(cheapCosts, accounts.PasswordLimits{})
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	here, there := accounts.New(store, pw), accounts.New(store, pw)
	accounts.SetClock(here, clock)
	accounts.SetClock(there, clock)
	if _, err := here.Register(ctx, "ada@example.com", "correct horse battery"); err != nil {
		t.Fatal(err)
	}
	s, err := here.Login(ctx, "ada@example.com", "correct horse battery", "k")
	if err != nil {
		t.Fatal(err)
	}
	for range 50 {
		if _, _, err := here.Authenticate(ctx, s.Key); err != nil {
			t.Fatal(err)
		}
	}
	if n := store.count(); n != 1 {
		t.Errorf("50 requests looked the key up %d times, want 1", n)
	}
	now = now.Add(accounts.KeyCacheTTL)
	if _, _, err := here.Authenticate(ctx, s.Key); err != nil || store.count() != 2 {
		t.Errorf("after the TTL: %v, %d lookups; want a second lookup", err, store.count())
	}

	// Revoked through the other instance: still trusted here until told.
	if _, _, err := there.Authenticate(ctx, s.Key); err != nil {
		t.Fatal(err)
	}
	if err := there.RevokeKey(ctx, s.User.ID, s.Info.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := there.Authenticate(ctx, s.Key); !errors.Is(err, account.ErrUnauthorized) {
		t.Errorf("the revoking instance accepts the key: %v", err)
	}
	if _, _, err := here.Authenticate(ctx, s.Key); err != nil {
		t.Errorf("before being told, the cached key was refused: %v (the cache is not used)", err)
	}
	here.Forget(s.Info.ID)
	if _, _, err := here.Authenticate(ctx, s.Key); !errors.Is(err, account.ErrUnauthorized) {
		t.Errorf("after Forget the revoked key gives %v, want ErrUnauthorized", err)
	}

	// ForgetAll drops every key; the next request asks the store again.
	s2, err := here.Login(ctx, "ada@example.com", "correct horse battery", "k2")
	if err != nil {
		t.Fatal(err)
	}
	_, _, _ = here.Authenticate(ctx, s2.Key)
	before := store.count()
	here.ForgetAll()
	if _, _, err := here.Authenticate(ctx, s2.Key); err != nil || store.count() != before+1 {
		t.Errorf("after ForgetAll: %v, %d lookups, want %d", err, store.count(), before+1)
	}
}
