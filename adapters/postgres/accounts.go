package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/ports"
)

type userRow struct {
	bun.BaseModel `bun:"table:users,alias:u"`

	ID           int64     `bun:"id,pk,autoincrement"`
	Email        string    `bun:"email"`
	PasswordHash string    `bun:"password_hash"`
	CreatedAt    time.Time `bun:"created_at"`
}

func (r userRow) toDomain() account.User {
	return account.User{ID: r.ID, Email: r.Email, PasswordHash: r.PasswordHash, CreatedAt: r.CreatedAt.UTC()}
}

type keyRow struct {
	bun.BaseModel `bun:"table:api_keys,alias:k"`

	ID         int64      `bun:"id,pk,autoincrement"`
	UserID     int64      `bun:"user_id"`
	Name       string     `bun:"name"`
	Prefix     string     `bun:"prefix"`
	Hash       string     `bun:"hash"`
	CreatedAt  time.Time  `bun:"created_at"`
	LastUsedAt *time.Time `bun:"last_used_at"`
}

func (r keyRow) toDomain() account.APIKey {
	k := account.APIKey{ID: r.ID, UserID: r.UserID, Name: r.Name, Prefix: r.Prefix, Hash: r.Hash, CreatedAt: r.CreatedAt.UTC()}
	if r.LastUsedAt != nil {
		t := r.LastUsedAt.UTC()
		k.LastUsedAt = &t
	}
	return k
}

// AccountStore keeps users and keys in PostgreSQL.
type AccountStore struct {
	db *DB
}

// NewAccountStore returns a store on db.
func NewAccountStore(db *DB) *AccountStore { return &AccountStore{db: db} }

// CreateUser implements ports.AccountStore.
func (s *AccountStore) CreateUser(ctx context.Context, u account.User) (account.User, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	row := userRow{Email: u.Email, PasswordHash: u.PasswordHash, CreatedAt: u.CreatedAt}
	_, err := s.db.NewInsert().Model(&row).Returning("id, created_at").Exec(ctx) // the time as stored (µs)
	if isUniqueViolation(err) {
		return account.User{}, account.ErrEmailTaken
	}
	if err != nil {
		return account.User{}, wrap("create user", err)
	}
	return row.toDomain(), nil
}

// UserByEmail implements ports.AccountStore.
func (s *AccountStore) UserByEmail(ctx context.Context, email string) (account.User, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var row userRow
	err := s.db.NewSelect().Model(&row).Where("email = ?", email).Scan(ctx)
	return row.toDomain(), notFound(err, "user by email")
}

// UserByID implements ports.AccountStore.
func (s *AccountStore) UserByID(ctx context.Context, id int64) (account.User, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var row userRow
	err := s.db.NewSelect().Model(&row).Where("id = ?", id).Scan(ctx)
	return row.toDomain(), notFound(err, "user by id")
}

// CreateKey implements ports.AccountStore.
func (s *AccountStore) CreateKey(ctx context.Context, k account.APIKey) (account.APIKey, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	row := keyRow{UserID: k.UserID, Name: k.Name, Prefix: k.Prefix, Hash: k.Hash, CreatedAt: k.CreatedAt}
	if _, err := s.db.NewInsert().Model(&row).Returning("id, created_at").Exec(ctx); err != nil { // the time as stored (µs)
		if isForeignKeyViolation(err) {
			return account.APIKey{}, account.ErrNotFound
		}
		return account.APIKey{}, wrap("create key", err)
	}
	return row.toDomain(), nil
}

// KeyByHash implements ports.AccountStore.
func (s *AccountStore) KeyByHash(ctx context.Context, hash string, now time.Time) (account.APIKey, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var row keyRow
	err := s.db.NewUpdate().Model(&row).Set("last_used_at = ?", now).Where("hash = ?", hash).Returning("*").Scan(ctx)
	return row.toDomain(), notFound(err, "key by hash")
}

// Keys implements ports.AccountStore.
func (s *AccountStore) Keys(ctx context.Context, userID int64) ([]account.APIKey, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var rows []keyRow
	if err := s.db.NewSelect().Model(&rows).Where("user_id = ?", userID).Order("id").Scan(ctx); err != nil {
		return nil, wrap("list keys", err)
	}
	out := make([]account.APIKey, len(rows))
	for i, r := range rows {
		out[i] = r.toDomain()
	}
	return out, nil
}

// KeysChannel is the NOTIFY channel on which a revocation is announced
// (the payload is the key's ID in decimal), so that every instance drops
// the key from its cache of verified keys.
const KeysChannel = "pinsight_keys"

// RevokeKey implements ports.AccountStore. The deletion and its
// announcement on KeysChannel are one statement: the notification goes
// out when, and only if, the deletion commits.
func (s *AccountStore) RevokeKey(ctx context.Context, userID, keyID int64) error {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var ids []int64
	err := s.db.NewRaw(`WITH d AS (DELETE FROM api_keys WHERE id = ? AND user_id = ? RETURNING id)
		SELECT id FROM d, pg_notify(?, d.id::text)`, keyID, userID, KeysChannel).Scan(ctx, &ids)
	if err != nil {
		return wrap("revoke key", err)
	}
	if len(ids) == 0 {
		return account.ErrNotFound
	}
	return nil
}

// notFound maps sql.ErrNoRows to account.ErrNotFound and wraps the rest.
func notFound(err error, op string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return account.ErrNotFound
	}
	if err != nil {
		return wrap(op, err)
	}
	return nil
}

// wrap adds context, marking connection failures as ErrUnavailable.
func wrap(op string, err error) error {
	if !isUnavailable(err) {
		return fmt.Errorf("postgres: %s: %w", op, err)
	}
	return fmt.Errorf("%w: %s: %v", ErrUnavailable, op, err)
}

func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}

func isForeignKeyViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23503"
}

// Interface guard.
var _ ports.AccountStore = (*AccountStore)(nil)
