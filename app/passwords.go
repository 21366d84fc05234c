package app

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// PasswordParams are the argon2id costs. bcrypt is not used: it truncates
// passwords at 72 bytes.
type PasswordParams struct {
	MemoryKiB uint32
	Time      uint32
	Threads   uint8
}

// DefaultPasswordParams follow OWASP's argon2id recommendation
// (19 MiB, 2 iterations, 1 thread).
var DefaultPasswordParams = PasswordParams{MemoryKiB: 19 * 1024, Time: 2, Threads: 1}

const (
	saltLen = 16
	hashLen = 32
)

var errBadHash = errors.New("app: malformed password hash")

// HashPassword returns the PHC string of an argon2id hash of p.
func (pp PasswordParams) HashPassword(p string) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	sum := argon2.IDKey([]byte(p), salt, pp.Time, pp.MemoryKiB, pp.Threads, hashLen)
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, pp.MemoryKiB, pp.Time, pp.Threads, enc.EncodeToString(salt), enc.EncodeToString(sum)), nil
}

// VerifyPassword reports whether p matches a PHC string made by HashPassword
// (with whatever costs it records), in constant time.
func VerifyPassword(phc, p string) (bool, error) {
	parts := strings.Split(phc, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errBadHash
	}
	var pp PasswordParams
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &pp.MemoryKiB, &pp.Time, &pp.Threads); err != nil {
		return false, errBadHash
	}
	enc := base64.RawStdEncoding
	salt, err1 := enc.DecodeString(parts[4])
	want, err2 := enc.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false, errBadHash
	}
	got := argon2.IDKey([]byte(p), salt, pp.Time, pp.MemoryKiB, pp.Threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}
