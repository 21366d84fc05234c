// Package accounts registers users, logs them in (minting API keys),
// resolves Bearer keys and hashes passwords (argon2id, with a bound on the
// work running at once).
package accounts

import (
	"context"
	"crypto/rand"
	"errors"
	"io"
	"time"

	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/ports"
)

// Accounts registers users, logs them in (minting API keys) and resolves
// Bearer keys to users.
type Accounts struct {
	store ports.AccountStore
	pw    PasswordHasher
	now   func() time.Time
	rand  io.Reader
	keys  *keyCache
}

// New returns the account use cases over store, hashing and verifying
// passwords with pw.
func New(store ports.AccountStore, pw PasswordHasher) *Accounts {
	return &Accounts{store: store, pw: pw, now: time.Now, rand: rand.Reader, keys: newKeyCache()}
}

// Session is a freshly minted key: Key is shown once.
type Session struct {
	User account.User
	Key  string
	Info account.APIKey
}

// Register creates a user. Invalid input (the password rules are
// account.CheckPassword's) is an *account.ValidationError; a taken address
// is one on "email" too. Errors also: ErrPasswordsBusy.
func (a *Accounts) Register(ctx context.Context, email, password string) (account.User, error) {
	e, err := account.NormalizeEmail(email)
	if err != nil {
		return account.User{}, err
	}
	if err := account.CheckPassword(password, e); err != nil {
		return account.User{}, err
	}
	hash, err := a.pw.Hash(ctx, password)
	if err != nil {
		return account.User{}, err
	}
	u, err := a.store.CreateUser(ctx, account.User{Email: e, PasswordHash: hash, CreatedAt: a.now().UTC()})
	if errors.Is(err, account.ErrEmailTaken) {
		return account.User{}, account.Invalid("email", "is already registered")
	}
	return u, err
}

// Login checks the password (as Verify does) and mints a new key named
// keyName; other keys stay valid. Errors: Verify's.
func (a *Accounts) Login(ctx context.Context, email, password, keyName string) (Session, error) {
	u, err := a.Verify(ctx, email, password)
	if err != nil {
		return Session{}, err
	}
	return a.mint(ctx, u, account.KeyName(keyName, "login "+a.now().UTC().Format(time.RFC3339)))
}

// Verify returns the user whose email and password these are, minting
// nothing. Wrong credentials are account.ErrInvalidCredentials; every
// failed check, known address or not, costs one password verification, so
// the answer time does not tell which addresses have accounts (nor which
// are operators' accounts without a password). Errors also: an
// *account.ValidationError for a malformed address or an empty password,
// ErrPasswordsBusy.
func (a *Accounts) Verify(ctx context.Context, email, password string) (account.User, error) {
	e, err := account.NormalizeEmail(email)
	if err != nil {
		return account.User{}, err
	}
	if password == "" {
		return account.User{}, account.Invalid("password", "is required")
	}
	u, err := a.store.UserByEmail(ctx, e)
	switch {
	case errors.Is(err, account.ErrNotFound):
		u = account.User{} // no hash: Verify runs its decoy
	case err != nil:
		return account.User{}, err
	}
	match, err := a.pw.Verify(ctx, u.PasswordHash, password)
	if err != nil {
		return account.User{}, err
	}
	if !match || u.ID == 0 {
		return account.User{}, account.ErrInvalidCredentials
	}
	return u, nil
}

// CreateUser makes a user (an operator's account) and returns its first
// key. With a password, checked as Register checks it, the user can also
// log in; with "" the account is key-only: it has no password, and Login
// refuses it as it refuses a wrong one.
func (a *Accounts) CreateUser(ctx context.Context, email, password string) (Session, error) {
	e, err := account.NormalizeEmail(email)
	if err != nil {
		return Session{}, err
	}
	u := account.User{Email: e, CreatedAt: a.now().UTC()}
	if password != "" {
		if err := account.CheckPassword(password, e); err != nil {
			return Session{}, err
		}
		if u.PasswordHash, err = a.pw.Hash(ctx, password); err != nil {
			return Session{}, err
		}
	}
	u, err = a.store.CreateUser(ctx, u)
	if errors.Is(err, account.ErrEmailTaken) {
		return Session{}, account.Invalid("email", "is already registered")
	}
	if err != nil {
		return Session{}, err
	}
	return a.mint(ctx, u, "cli")
}

// Authenticate resolves a Bearer key to its user and key, or returns
// account.ErrUnauthorized. A verified key is trusted for KeyCacheTTL
// without asking the store again (see KeyCacheTTL for revocations);
// unknown keys are never cached.
func (a *Accounts) Authenticate(ctx context.Context, key string) (account.User, account.APIKey, error) {
	if key == "" {
		return account.User{}, account.APIKey{}, account.ErrUnauthorized
	}
	hash, now := account.HashKey(key), a.now().UTC()
	e, epoch, ok := a.keys.get(hash, now)
	if ok {
		return e.user, e.key, nil
	}
	k, err := a.store.KeyByHash(ctx, hash, now)
	if errors.Is(err, account.ErrNotFound) {
		return account.User{}, account.APIKey{}, account.ErrUnauthorized
	}
	if err != nil {
		return account.User{}, account.APIKey{}, err
	}
	u, err := a.store.UserByID(ctx, k.UserID)
	if errors.Is(err, account.ErrNotFound) {
		return account.User{}, account.APIKey{}, account.ErrUnauthorized
	}
	if err == nil {
		a.keys.put(u, k, now, epoch)
	}
	return u, k, err
}

// Forget drops a key from the cache of verified keys: call it when another
// instance revoked the key.
func (a *Accounts) Forget(keyID int64) { a.keys.forget(keyID) }

// ForgetAll empties the cache of verified keys: call it when revocations
// by other instances may have been missed (a lost notification connection).
func (a *Accounts) ForgetAll() { a.keys.forgetAll() }

// Rotate mints a new key for the user and revokes the key the request used.
func (a *Accounts) Rotate(ctx context.Context, u account.User, current account.APIKey, name string) (Session, error) {
	s, err := a.mint(ctx, u, account.KeyName(name, current.Name))
	if err != nil {
		return Session{}, err
	}
	return s, a.RevokeKey(ctx, u.ID, current.ID)
}

// Keys lists the user's keys.
func (a *Accounts) Keys(ctx context.Context, userID int64) ([]account.APIKey, error) {
	return a.store.Keys(ctx, userID)
}

// RevokeKey deletes one of the user's keys (account.ErrNotFound otherwise);
// this process refuses it from then on.
func (a *Accounts) RevokeKey(ctx context.Context, userID, keyID int64) error {
	err := a.store.RevokeKey(ctx, userID, keyID)
	a.keys.forget(keyID) // also when another instance revoked it first (not found)
	return err
}

func (a *Accounts) mint(ctx context.Context, u account.User, name string) (Session, error) {
	key, rec, err := account.NewKey(a.rand, u.ID, name, a.now().UTC())
	if err != nil {
		return Session{}, err
	}
	rec, err = a.store.CreateKey(ctx, rec)
	if err != nil {
		return Session{}, err
	}
	return Session{User: u, Key: key, Info: rec}, nil
}
