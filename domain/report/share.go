package report

import (
	"crypto/rand"
	"encoding/base32"
	"strings"
)

// shareTokenLen is the length of a share token: 128 random bits in
// unpadded base32, 26 characters.
const shareTokenLen = 26

// shareAlphabet is RFC 4648's base32 alphabet, in lower case.
const shareAlphabet = "abcdefghijklmnopqrstuvwxyz234567"

var shareEncoding = base32.NewEncoding(shareAlphabet).WithPadding(base32.NoPadding)

// NewShareToken draws a report's public share token: 128 bits from the
// system's cryptographic random source in lower-case base32, so a report
// page's address can be neither guessed nor walked.
func NewShareToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return shareEncoding.EncodeToString(b[:])
}

// ValidShareToken reports whether s has the form of a share token, so a
// lookup of anything else can be skipped.
func ValidShareToken(s string) bool {
	if len(s) != shareTokenLen {
		return false
	}
	for i := range len(s) {
		if strings.IndexByte(shareAlphabet, s[i]) < 0 {
			return false
		}
	}
	return true
}

// SharePassword checks a password sent with privacy and returns it ("" when
// none was sent). An empty password counts as not sent (HTML forms send
// empty fields); hasHash says a password is stored already, which then
// need not be sent again.
func SharePassword(privacy Privacy, password *string, hasHash bool) (string, error) {
	sent := password != nil && *password != ""
	switch {
	case privacy != Protected && sent:
		return "", Invalid("password", "is only accepted with privacy 2 (password)")
	case privacy != Protected:
		return "", nil
	case !sent && !hasHash:
		return "", Invalid("password", "is required with privacy 2 (password)")
	case !sent:
		return "", nil
	}
	if err := CheckPassword(*password); err != nil {
		return "", err
	}
	return *password, nil
}
