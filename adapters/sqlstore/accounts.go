package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/ports"
)

type userRow struct {
	bun.BaseModel `bun:"table:users,alias:u"`

	ID           int64  `bun:"id,pk,autoincrement"`
	Email        string `bun:"email"`
	PasswordHash string `bun:"password_hash"`
	CreatedAt    stamp  `bun:"created_at"`
}

func (r userRow) toDomain() account.User {
	return account.User{ID: r.ID, Email: r.Email, PasswordHash: r.PasswordHash, CreatedAt: r.CreatedAt.utc()}
}

type keyRow struct {
	bun.BaseModel `bun:"table:api_keys,alias:k"`

	ID         int64  `bun:"id,pk,autoincrement"`
	UserID     int64  `bun:"user_id"`
	Name       string `bun:"name"`
	Prefix     string `bun:"prefix"`
	Hash       string `bun:"hash"`
	CreatedAt  stamp  `bun:"created_at"`
	LastUsedAt *stamp `bun:"last_used_at"`
}

func (r keyRow) toDomain() account.APIKey {
	k := account.APIKey{ID: r.ID, UserID: r.UserID, Name: r.Name, Prefix: r.Prefix, Hash: r.Hash, CreatedAt: r.CreatedAt.utc()}
	if r.LastUsedAt != nil {
		t := r.LastUsedAt.utc()
		k.LastUsedAt = &t
	}
	return k
}

// lockUser serialises, until tx ends, the writes that count one user's rows
// against a cap, so two at once cannot both pass the count: PostgreSQL
// locks the user's row; SQLite's IMMEDIATE transaction holds the file's
// write lock already. A user that does not exist is no error here: the
// write that follows meets the foreign key, or the rows it counts are none.
func (s store) lockUser(ctx context.Context, tx bun.Tx, userID int64) error {
	var uid int64
	err := s.dialect.lockRows(tx.NewSelect().Model((*userRow)(nil)).Column("id").Where("id = ?", userID), false).Scan(ctx, &uid)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	return s.wrap("lock user", err)
}

// KeysChannel is the channel on which a revoked key's ID (in decimal) is
// announced on commit, so that every instance drops the key from its cache
// of verified keys.
const KeysChannel = "pinsight_keys"

// AccountStore keeps users and their API keys.
type AccountStore struct{ store }

// NewAccountStore returns the account store on e.
func NewAccountStore(e Engine) *AccountStore { return &AccountStore{newStore(e)} }

// CreateUser implements ports.AccountStore.
func (s *AccountStore) CreateUser(ctx context.Context, u account.User) (account.User, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	row := userRow{Email: u.Email, PasswordHash: u.PasswordHash, CreatedAt: stampOf(u.CreatedAt)}
	_, err := s.e.Write.NewInsert().Model(&row).Returning("id").Exec(ctx)
	if s.e.UniqueViolation(err) {
		return account.User{}, account.ErrEmailTaken
	}
	if err != nil {
		return account.User{}, s.wrap("create user", err)
	}
	return row.toDomain(), nil
}

// UserByEmail implements ports.AccountStore.
func (s *AccountStore) UserByEmail(ctx context.Context, email string) (account.User, error) {
	return s.user(ctx, "user by email", "email = ?", email)
}

// UserByID implements ports.AccountStore.
func (s *AccountStore) UserByID(ctx context.Context, id int64) (account.User, error) {
	return s.user(ctx, "user by id", "id = ?", id)
}

// user reads the user where matches, or account.ErrNotFound.
func (s *AccountStore) user(ctx context.Context, op, where string, arg any) (account.User, error) {
	if text, ok := arg.(string); ok && s.dialect.unstorable(text) {
		return account.User{}, account.ErrNotFound
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var row userRow
	if err := s.e.Read.NewSelect().Model(&row).Where(where, arg).Scan(ctx); err != nil {
		return account.User{}, s.missing(err, account.ErrNotFound, op)
	}
	return row.toDomain(), nil
}

// CreateKey implements ports.AccountStore.
func (s *AccountStore) CreateKey(ctx context.Context, k account.APIKey) (account.APIKey, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	row := keyRow{UserID: k.UserID, Name: k.Name, Prefix: k.Prefix, Hash: k.Hash, CreatedAt: stampOf(k.CreatedAt)}
	if _, err := s.e.Write.NewInsert().Model(&row).Returning("id").Exec(ctx); err != nil {
		if s.e.ForeignKeyViolation(err) {
			return account.APIKey{}, account.ErrNotFound
		}
		return account.APIKey{}, s.wrap("create key", err)
	}
	return row.toDomain(), nil
}

// KeyByHash implements ports.AccountStore.
func (s *AccountStore) KeyByHash(ctx context.Context, hash string, now time.Time) (account.APIKey, error) {
	if s.dialect.unstorable(hash) {
		return account.APIKey{}, account.ErrNotFound
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var row keyRow
	err := s.e.Write.NewUpdate().Model(&row).Set("last_used_at = ?", stampOf(now)).Where("hash = ?", hash).Returning("*").Scan(ctx)
	if err != nil {
		return account.APIKey{}, s.missing(err, account.ErrNotFound, "key by hash")
	}
	return row.toDomain(), nil
}

// Keys implements ports.AccountStore.
func (s *AccountStore) Keys(ctx context.Context, userID int64) ([]account.APIKey, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var rows []keyRow
	if err := s.e.Read.NewSelect().Model(&rows).Where("user_id = ?", userID).Order("id").Scan(ctx); err != nil {
		return nil, s.wrap("list keys", err)
	}
	out := make([]account.APIKey, len(rows))
	for i, r := range rows {
		out[i] = r.toDomain()
	}
	return out, nil
}

// RevokeKey implements ports.AccountStore. The deletion is announced on
// KeysChannel when, and only if, it commits.
func (s *AccountStore) RevokeKey(ctx context.Context, userID, keyID int64) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.inTx(ctx, "revoke key", func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewDelete().Model((*keyRow)(nil)).Where("id = ? AND user_id = ?", keyID, userID).Exec(ctx)
		if err != nil {
			return s.wrap("revoke key", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return account.ErrNotFound
		}
		return s.wrap("announce revoked key", s.dialect.notify(ctx, tx, KeysChannel, fmt.Sprint(keyID)))
	})
}

// Interface guard.
var _ ports.AccountStore = (*AccountStore)(nil)
