package postal_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"github.com/pinsight/pinsight/domain/postal"
)

// referenceNameKey is NameKey written plainly, rune by rune.
func referenceNameKey(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(unicode.ToLower(r))
		case r == '.' || r == '\'':
		default:
			space = true
		}
	}
	return b.String()
}

// referenceOfficeKey is OfficeKey written plainly: the words of the name
// key but for suffix words after the first.
func referenceOfficeKey(name string) string {
	var out []string
	for i, w := range strings.Fields(referenceNameKey(name)) {
		if i > 0 && (w == "bo" || w == "so" || w == "ho" || w == "po" || w == "gpo") {
			continue
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

// TestNameKeysAgreeWithTheirPlainForm compares NameKey and OfficeKey with
// their plain forms on names built at random from ASCII, punctuation,
// suffixes, non-ASCII letters and digits, and invalid UTF-8.
func TestNameKeysAgreeWithTheirPlainForm(t *testing.T) {
	parts := []string{"a", "Z", "q", "7", " ", "  ", ".", "'", "-", "(", ")", "/", "\t", "B.O", "S.O.", "so", "HO", "gpo", "P O",
		"É", "ß", "İ", "ǅ", "Σ", "१", "٣", "क", "\u00a0", "\u2003", "\xff", "\xe2\x82", "Ⅻ", "ｓｏ"}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		for k := rng.IntN(12); k >= 0; k-- {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		s := b.String()
		if got, want := postal.NameKey(s), referenceNameKey(s); got != want {
			t.Fatalf("NameKey(%q) = %q, want %q", s, got, want)
		}
		if got, want := postal.OfficeKey(s), referenceOfficeKey(s); got != want {
			t.Fatalf("OfficeKey(%q) = %q, want %q", s, got, want)
		}
	}
}
