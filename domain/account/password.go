package account

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Password rules, for account passwords and report share passwords alike.
const (
	// MinPasswordLen is the fewest characters a password may have, not
	// counting leading and trailing spaces or invisible characters.
	MinPasswordLen = 8
	// MaxPasswordBytes bounds a password's UTF-8 encoding, so the input of
	// argon2id stays small.
	MaxPasswordBytes = 256
)

// PasswordProblem says what is wrong with a password someone chose, as a
// message about the password field, or returns "" when it is acceptable.
// It must be valid UTF-8 of at most MaxPasswordBytes bytes without control
// characters (NUL, tab, line breaks, ...); it must have MinPasswordLen
// characters once trimmed, invisible formatting characters not counted; it
// must not be one character repeated, nor one of the most common passwords
// (compared without case). The password is hashed as sent: trimming only
// decides what counts.
func PasswordProblem(p string) string {
	if !utf8.ValidString(p) || strings.ContainsRune(p, utf8.RuneError) {
		return "must be valid UTF-8 text"
	}
	if len(p) > MaxPasswordBytes {
		return fmt.Sprintf("must be at most %d bytes long (UTF-8)", MaxPasswordBytes)
	}
	if strings.IndexFunc(p, unicode.IsControl) >= 0 {
		return "must not contain control characters (such as NUL, tab or line breaks)"
	}
	core := strings.TrimFunc(p, unicode.IsSpace)
	n, first, same := 0, rune(-1), true
	for _, r := range core {
		if unicode.Is(unicode.Cf, r) {
			continue
		}
		r = unicode.ToLower(r)
		if first < 0 {
			first = r
		}
		same = same && r == first
		n++
	}
	switch {
	case n < MinPasswordLen:
		return fmt.Sprintf("must have at least %d characters, not counting leading and trailing spaces", MinPasswordLen)
	case same:
		return "must not be one character repeated"
	case isCommonPassword(core):
		return "is one of the most common passwords: choose another"
	}
	return ""
}

// CheckPassword applies PasswordProblem to the password of an account with
// the given e-mail address, which also may not be the address or its local
// part. The error is a *ValidationError on "password".
func CheckPassword(password, email string) error {
	if msg := PasswordProblem(password); msg != "" {
		return Invalid("password", msg)
	}
	p := strings.ToLower(strings.TrimSpace(password))
	email = strings.ToLower(strings.TrimSpace(email))
	if local, _, _ := strings.Cut(email, "@"); p == email || p == local {
		return Invalid("password", "must not be the e-mail address or its part before the @")
	}
	return nil
}

//go:embed common_passwords.txt
var commonPasswordList string

// commonPasswords is the set of common_passwords.txt: one lower-case
// password a line, "#" lines being comments.
var commonPasswords = sync.OnceValue(func() map[string]struct{} {
	set := make(map[string]struct{}, 1024)
	for line := range strings.Lines(commonPasswordList) {
		line = strings.TrimRight(line, "\r\n")
		if line != "" && !strings.HasPrefix(line, "#") {
			set[line] = struct{}{}
		}
	}
	return set
})

func isCommonPassword(p string) bool {
	_, found := commonPasswords()[strings.ToLower(p)]
	return found
}
