package porttest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/ports"
)

// TestAccountStore checks an AccountStore. newStore must return an empty
// store each time it is called.
func TestAccountStore(t *testing.T, newStore func(t *testing.T) ports.AccountStore) {
	ctx := context.Background()
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	t.Run("users", func(t *testing.T) {
		s := newStore(t)
		u, err := s.CreateUser(ctx, account.User{Email: "ada@example.com", PasswordHash: "h", CreatedAt: now})
		if err != nil || u.ID == 0 {
			t.Fatalf("CreateUser = %+v, %v", u, err)
		}
		if _, err := s.CreateUser(ctx, account.User{Email: "ada@example.com", CreatedAt: now}); !errors.Is(err, account.ErrEmailTaken) {
			t.Errorf("duplicate CreateUser err = %v, want ErrEmailTaken", err)
		}
		got, err := s.UserByEmail(ctx, "ada@example.com")
		if err != nil || got.ID != u.ID || got.PasswordHash != "h" || !got.CreatedAt.Equal(now) {
			t.Errorf("UserByEmail = %+v, %v", got, err)
		}
		if got, err := s.UserByID(ctx, u.ID); err != nil || got.Email != u.Email {
			t.Errorf("UserByID = %+v, %v", got, err)
		}
		if _, err := s.UserByEmail(ctx, "nobody@example.com"); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("UserByEmail(unknown) err = %v", err)
		}
		if _, err := s.UserByID(ctx, u.ID+1000); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("UserByID(unknown) err = %v", err)
		}
	})
	t.Run("keys", func(t *testing.T) {
		s := newStore(t)
		ada, _ := s.CreateUser(ctx, account.User{Email: "ada@example.com", CreatedAt: now})
		bob, _ := s.CreateUser(ctx, account.User{Email: "bob@example.com", CreatedAt: now})
		k1, err := s.CreateKey(ctx, account.APIKey{UserID: ada.ID, Name: "one", Prefix: "psk_aaaa", Hash: "h1", CreatedAt: now})
		if err != nil || k1.ID == 0 {
			t.Fatalf("CreateKey = %+v, %v", k1, err)
		}
		k2, _ := s.CreateKey(ctx, account.APIKey{UserID: ada.ID, Name: "two", Prefix: "psk_bbbb", Hash: "h2", CreatedAt: now.Add(time.Second)})
		kb, _ := s.CreateKey(ctx, account.APIKey{UserID: bob.ID, Name: "bob", Prefix: "psk_cccc", Hash: "h3", CreatedAt: now})
		used := now.Add(time.Hour)
		got, err := s.KeyByHash(ctx, "h1", used)
		if err != nil || got.ID != k1.ID || got.UserID != ada.ID || got.LastUsedAt == nil || !got.LastUsedAt.Equal(used) {
			t.Errorf("KeyByHash = %+v, %v", got, err)
		}
		if _, err := s.KeyByHash(ctx, "nope", used); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("KeyByHash(unknown) err = %v", err)
		}
		keys, err := s.Keys(ctx, ada.ID)
		if err != nil || len(keys) != 2 || keys[0].ID != k1.ID || keys[1].ID != k2.ID || keys[0].Name != "one" {
			t.Errorf("Keys = %+v, %v", keys, err)
		}
		if err := s.RevokeKey(ctx, bob.ID, k1.ID); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("RevokeKey of another user's key err = %v, want ErrNotFound", err)
		}
		if err := s.RevokeKey(ctx, ada.ID, k1.ID); err != nil {
			t.Fatalf("RevokeKey = %v", err)
		}
		if _, err := s.KeyByHash(ctx, "h1", used); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("revoked key still found: %v", err)
		}
		if _, err := s.KeyByHash(ctx, "h3", used); err != nil || kb.ID == 0 {
			t.Errorf("bob's key lost: %v", err)
		}
		if err := s.RevokeKey(ctx, ada.ID, k1.ID); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("second RevokeKey err = %v", err)
		}
	})
	t.Run("unknown user's key", func(t *testing.T) {
		s := newStore(t)
		ada, _ := s.CreateUser(ctx, account.User{Email: "ada@example.com", CreatedAt: now})
		if _, err := s.CreateKey(ctx, account.APIKey{UserID: ada.ID + 1000, Name: "x", Prefix: "psk_xxxx", Hash: "hx", CreatedAt: now}); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("CreateKey for an unknown user err = %v, want ErrNotFound", err)
		}
		if _, err := s.KeyByHash(ctx, "hx", now); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("the refused key was stored: KeyByHash err = %v", err)
		}
	})
	t.Run("ids not reused", func(t *testing.T) {
		s := newStore(t)
		ada, _ := s.CreateUser(ctx, account.User{Email: "ada@example.com", CreatedAt: now})
		newest, err := s.CreateKey(ctx, account.APIKey{UserID: ada.ID, Name: "one", Prefix: "psk_aaaa", Hash: "h1", CreatedAt: now})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.RevokeKey(ctx, ada.ID, newest.ID); err != nil {
			t.Fatal(err)
		}
		next, err := s.CreateKey(ctx, account.APIKey{UserID: ada.ID, Name: "two", Prefix: "psk_bbbb", Hash: "h2", CreatedAt: now})
		if err != nil || next.ID <= newest.ID {
			t.Errorf("key after revoking the newest = %d, %v; want an id above %d (a reused id would let a revoked key's id name a new one)", next.ID, err, newest.ID)
		}
	})
	t.Run("microsecond times", func(t *testing.T) {
		s := newStore(t)
		at := time.Date(2026, 11, 23, 10, 0, 0, 123456000, time.UTC)
		u, err := s.CreateUser(ctx, account.User{Email: "ada@example.com", CreatedAt: at})
		if err != nil {
			t.Fatal(err)
		}
		if got, err := s.UserByID(ctx, u.ID); err != nil || !got.CreatedAt.Equal(at) {
			t.Errorf("user created_at = %s, %v; want %s", got.CreatedAt.Format(time.RFC3339Nano), err, at.Format(time.RFC3339Nano))
		}
		k, err := s.CreateKey(ctx, account.APIKey{UserID: u.ID, Name: "one", Prefix: "psk_aaaa", Hash: "h1", CreatedAt: at.Add(time.Microsecond)})
		if err != nil || !k.CreatedAt.Equal(at.Add(time.Microsecond)) {
			t.Errorf("CreateKey created_at = %s, %v", k.CreatedAt.Format(time.RFC3339Nano), err)
		}
		used := at.Add(2 * time.Microsecond)
		if got, err := s.KeyByHash(ctx, "h1", used); err != nil || got.LastUsedAt == nil || !got.LastUsedAt.Equal(used) || !got.CreatedAt.Equal(k.CreatedAt) {
			t.Errorf("KeyByHash = %+v, %v; want created %s, last used %s", got, err, k.CreatedAt, used)
		}
		if keys, err := s.Keys(ctx, u.ID); err != nil || len(keys) != 1 || keys[0].LastUsedAt == nil || !keys[0].LastUsedAt.Equal(used) {
			t.Errorf("Keys = %+v, %v; want last used %s", keys, err, used)
		}
	})
	t.Run("deadline passed", func(t *testing.T) {
		s := newStore(t)
		u, _ := s.CreateUser(ctx, account.User{Email: "ada@example.com", CreatedAt: now})
		late, cancel := context.WithDeadline(ctx, time.Now().Add(-time.Second))
		defer cancel()
		// A store that waits on a database fails with ErrUnavailable (the
		// API's 503 with Retry-After); one that never waits may answer.
		if _, err := s.UserByID(late, u.ID); err != nil && !errors.Is(err, ports.ErrUnavailable) {
			t.Errorf("UserByID with its deadline passed = %v, want ports.ErrUnavailable", err)
		}
		if _, err := s.KeyByHash(late, "nope", now); err != nil && !errors.Is(err, ports.ErrUnavailable) && !errors.Is(err, account.ErrNotFound) {
			t.Errorf("KeyByHash with its deadline passed = %v, want ports.ErrUnavailable", err)
		}
	})
}
