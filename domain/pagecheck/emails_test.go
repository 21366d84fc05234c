package pagecheck

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestFindEmailsMatchesRegexp holds findEmails to the answer of the whole
// expression over the whole text, on hand-picked edges and random texts
// drawn from the characters that matter.
func TestFindEmailsMatchesRegexp(t *testing.T) {
	texts := []string{
		"", "@", "a@b", "a@b.c", "a@b.co", "write to a.b+c@mail.example.org today",
		"a@b.com.x@c.com", "x@@y.in", "one@a.in,two@b.in;three@c.in", "@@a@b.in@c.in",
		"user@host.x.y.z", "-@-.-", "नमस्ते a@b.in", "a@b.in" + strings.Repeat(".", 3) + "c@d.in",
		strings.Repeat("a", 1000) + "@" + strings.Repeat("b.", 500) + "in",
	}
	const alphabet = "ab.@-_%+9 Z\n"
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		want, got := email.FindAllString(s, -1), findEmails(s)
		if !slices.Equal(want, got) {
			t.Fatalf("findEmails(%q) = %q, the expression finds %q", s, got, want)
		}
	}
}
