package memory

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/ports"
)

// AccountStore keeps users and keys in memory.
type AccountStore struct {
	mu      sync.RWMutex
	users   map[int64]account.User
	byEmail map[string]int64
	keys    map[int64]account.APIKey
	byHash  map[string]int64
	// lastUser and lastKey number users and keys separately, as the
	// Postgres adapter's sequences do: ids a client sees do not depend on
	// the storage.
	lastUser, lastKey int64
}

// NewAccountStore returns an empty store.
func NewAccountStore() *AccountStore {
	return &AccountStore{
		users: map[int64]account.User{}, byEmail: map[string]int64{},
		keys: map[int64]account.APIKey{}, byHash: map[string]int64{},
	}
}

// CreateUser implements ports.AccountStore.
func (s *AccountStore) CreateUser(_ context.Context, u account.User) (account.User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, taken := s.byEmail[u.Email]; taken {
		return account.User{}, account.ErrEmailTaken
	}
	s.lastUser++
	u.ID, u.CreatedAt = s.lastUser, storedTime(u.CreatedAt)
	s.users[u.ID], s.byEmail[u.Email] = u, u.ID
	return u, nil
}

// UserByEmail implements ports.AccountStore.
func (s *AccountStore) UserByEmail(_ context.Context, email string) (account.User, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	id, found := s.byEmail[email]
	if !found {
		return account.User{}, account.ErrNotFound
	}
	return s.users[id], nil
}

// UserByID implements ports.AccountStore.
func (s *AccountStore) UserByID(_ context.Context, id int64) (account.User, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u, found := s.users[id]
	if !found {
		return account.User{}, account.ErrNotFound
	}
	return u, nil
}

// CreateKey implements ports.AccountStore.
func (s *AccountStore) CreateKey(_ context.Context, k account.APIKey) (account.APIKey, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, found := s.users[k.UserID]; !found {
		return account.APIKey{}, account.ErrNotFound
	}
	s.lastKey++
	k.ID, k.CreatedAt = s.lastKey, storedTime(k.CreatedAt)
	s.keys[k.ID], s.byHash[k.Hash] = k, k.ID
	return k, nil
}

// KeyByHash implements ports.AccountStore.
func (s *AccountStore) KeyByHash(_ context.Context, hash string, now time.Time) (account.APIKey, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, found := s.byHash[hash]
	if !found {
		return account.APIKey{}, account.ErrNotFound
	}
	k := s.keys[id]
	now = storedTime(now)
	k.LastUsedAt = &now
	s.keys[id] = k
	return k, nil
}

// Keys implements ports.AccountStore.
func (s *AccountStore) Keys(_ context.Context, userID int64) ([]account.APIKey, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []account.APIKey
	for _, k := range s.keys {
		if k.UserID == userID {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(a, b account.APIKey) int { return int(a.ID - b.ID) })
	return out, nil
}

// RevokeKey implements ports.AccountStore.
func (s *AccountStore) RevokeKey(_ context.Context, userID, keyID int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k, found := s.keys[keyID]
	if !found || k.UserID != userID {
		return account.ErrNotFound
	}
	delete(s.keys, keyID)
	delete(s.byHash, k.Hash)
	return nil
}

// storedTime keeps t to the microsecond, the resolution of a Postgres
// timestamptz, so both adapters give the same times.
func storedTime(t time.Time) time.Time { return t.Truncate(time.Microsecond) }

// Interface guard.
var _ ports.AccountStore = (*AccountStore)(nil)
