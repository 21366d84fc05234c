// Package account holds users, API keys and the rules for their credentials.
// Only a key's SHA-256 is ever stored; the key itself is shown once.
package account

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/mail"
	"strings"
	"time"
	"unicode"
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
	ErrNotFound           = errors.New("account: not found")
	ErrEmailTaken         = errors.New("account: email already registered")
	ErrInvalidCredentials = errors.New("account: invalid email or password")
	ErrUnauthorized       = errors.New("account: missing or invalid API key")
)

// Credential limits.
const (
	MinPasswordLen = 8
	MaxPasswordLen = 128
	MaxEmailLen    = 254
	MaxKeyNameLen  = 100
	keyBytes       = 32
	keyPrefix      = "psk_"
	displayLen     = 12
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
// bare address (no display name) of acceptable length.
func NormalizeEmail(s string) (string, error) {
	e := strings.ToLower(strings.TrimSpace(s))
	if e == "" {
		return "", Invalid("email", "is required")
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

// CheckPassword enforces the password length rules (counted in characters).
func CheckPassword(field, p string) error {
	n := len([]rune(p))
	if n < MinPasswordLen || n > MaxPasswordLen {
		return Invalid(field, fmt.Sprintf("must be %d to %d characters", MinPasswordLen, MaxPasswordLen))
	}
	return nil
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

// KeyName cleans a key name (a label, often a user agent): invalid UTF-8
// and control characters (NUL among them, which PostgreSQL text cannot
// hold) are dropped, spaces trimmed, an empty name becomes def, and a long
// one is cut to MaxKeyNameLen characters.
func KeyName(name, def string) string {
	name = strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(name, "")))
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
