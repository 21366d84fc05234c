// Package account holds users, API keys and the rules for their credentials.
// Only a key's SHA-256 is ever stored; the key itself is shown once.
package account

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"net/mail"
	"strings"
	"time"
	"unicode"

	"github.com/pinsight/pinsight/domain/fault"
	"github.com/pinsight/pinsight/domain/usertext"
)

// User is an account holder.
type User struct {
	ID           int64
	Email        string // normalised: trimmed, lower case
	PasswordHash string // PHC-formatted argon2id hash
	CreatedAt    time.Time
}

// APIKey is a Bearer credential of a user. Hash is the hex SHA-256 of the key.
type APIKey struct {
	ID         int64
	UserID     int64
	Name       string
	Prefix     string // first characters of the key, safe to display
	Hash       string
	CreatedAt  time.Time
	LastUsedAt *time.Time
}

// Errors returned by account stores and use cases.
var (
	ErrNotFound           = fault.New(fault.NotFound, "account: not found")
	ErrEmailTaken         = fault.New(fault.Conflict, "account: email already registered")
	ErrInvalidCredentials = fault.New(fault.Unauthorized, "account: invalid email or password")
	ErrUnauthorized       = fault.New(fault.Unauthorized, "account: missing or invalid API key")
)

// Credential limits (the password rules are in password.go).
const (
	MaxEmailLen   = 254
	MaxKeyNameLen = 100
	keyBytes      = 32
	keyPrefix     = "psk_"
	displayLen    = 12
)

// ValidationError lists invalid fields with their messages.
type ValidationError struct {
	Fields map[string][]string
}

func (e *ValidationError) Error() string {
	parts := make([]string, 0, len(e.Fields))
	for f, msgs := range e.Fields {
		parts = append(parts, f+": "+strings.Join(msgs, ", "))
	}
	return "account: invalid " + strings.Join(parts, "; ")
}

// Invalid returns a ValidationError for one field.
func Invalid(field, msg string) *ValidationError {
	return &ValidationError{Fields: map[string][]string{field: {msg}}}
}

// NormalizeEmail trims and lower-cases an address and checks that it is a
// bare address (no display name) of acceptable length following the user
// text rule of package usertext (valid UTF-8, no control characters or
// invisible formatting characters such as bidirectional overrides and
// zero-width spaces) and, being an identifier, without the joiners or
// spaces the rule lets other text hold, which would let two accounts look
// alike.
func NormalizeEmail(s string) (string, error) {
	e := strings.TrimSpace(s)
	if msg := usertext.CheckLine(e); msg != "" {
		return "", Invalid("email", msg)
	}
	e = strings.ToLower(e)
	if e == "" {
		return "", Invalid("email", "is required")
	}
	if strings.IndexFunc(e, unsafeInEmail) >= 0 {
		return "", Invalid("email", "must not contain spaces or invisible characters")
	}
	if len(e) > MaxEmailLen {
		return "", Invalid("email", fmt.Sprintf("must be at most %d characters", MaxEmailLen))
	}
	a, err := mail.ParseAddress(e)
	if err != nil || a.Address != e || !strings.Contains(e[strings.LastIndexByte(e, '@')+1:], ".") {
		return "", Invalid("email", "must be a valid e-mail address")
	}
	return e, nil
}

// NewKey draws a key from r (crypto/rand in production) and returns the key
// to show once and the record to store.
func NewKey(r io.Reader, userID int64, name string, now time.Time) (string, APIKey, error) {
	b := make([]byte, keyBytes)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", APIKey{}, fmt.Errorf("account: draw key: %w", err)
	}
	key := keyPrefix + base64.RawURLEncoding.EncodeToString(b)
	return key, APIKey{UserID: userID, Name: name, Prefix: key[:displayLen], Hash: HashKey(key), CreatedAt: now}, nil
}

// HashKey returns the stored form of a key: hex SHA-256.
func HashKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// unsafeInEmail reports what an address refuses beyond the user text rule:
// the joiners and white space other than the ASCII space (which the
// address syntax refuses with a clearer message).
func unsafeInEmail(r rune) bool {
	return usertext.IsJoiner(r) || r != ' ' && unicode.IsSpace(r)
}

// KeyName cleans a key name (a label, often a user agent) by the user text
// rule of package usertext, dropping rather than refusing: invalid UTF-8,
// control characters (NUL among them, which PostgreSQL text cannot hold),
// line and paragraph separators, invisible formatting characters
// (bidirectional overrides and isolates, zero-width spaces, tags, ...) and
// combining marks beyond usertext.MaxMarks on a character are dropped,
// spaces trimmed, an empty name becomes def, and a long one is cut to
// MaxKeyNameLen characters. The zero-width joiner and non-joiner stay:
// emoji sequences and Indic scripts need them.
func KeyName(name, def string) string {
	name = strings.TrimSpace(usertext.Strip(name))
	if name == "" {
		name = def
	}
	if r := []rune(name); len(r) > MaxKeyNameLen {
		name = string(r[:MaxKeyNameLen])
	}
	return name
}

// FieldErrors returns the messages by field, for transports.
func (e *ValidationError) FieldErrors() map[string][]string { return e.Fields }

// Kind implements fault.Kinder.
func (e *ValidationError) Kind() fault.Kind { return fault.Invalid }
