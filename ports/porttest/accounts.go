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
}
