package ports

import (
	"context"
	"time"

	"github.com/pinsight/pinsight/domain/account"
)

// AccountStore keeps users and their API keys. Ids are never reused, even
// after the newest key is revoked; times are kept to the microsecond. A
// store that cannot reach its database in time (the context's deadline
// included) answers an error wrapping ErrUnavailable.
type AccountStore interface {
	// CreateUser stores u, assigning its ID. Returns account.ErrEmailTaken
	// when the e-mail is registered already.
	CreateUser(ctx context.Context, u account.User) (account.User, error)
	// UserByEmail returns account.ErrNotFound when no user has the address.
	UserByEmail(ctx context.Context, email string) (account.User, error)
	// UserByID returns account.ErrNotFound when there is no such user.
	UserByID(ctx context.Context, id int64) (account.User, error)
	// CreateKey stores k, assigning its ID; account.ErrNotFound when
	// k.UserID is no user.
	CreateKey(ctx context.Context, k account.APIKey) (account.APIKey, error)
	// KeyByHash returns the live key with that hash, marking it used at now,
	// or account.ErrNotFound.
	KeyByHash(ctx context.Context, hash string, now time.Time) (account.APIKey, error)
	// Keys lists a user's live keys, oldest first.
	Keys(ctx context.Context, userID int64) ([]account.APIKey, error)
	// RevokeKey deletes one of the user's keys; account.ErrNotFound when the
	// user has no such key.
	RevokeKey(ctx context.Context, userID, keyID int64) error
}
