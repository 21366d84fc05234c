package memory

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestComparePrefixedIsStringsCompare compares comparePrefixed with
// strings.Compare on strings built at random from short pieces (NUL and
// high bytes included), many sharing their first 8 bytes.
func TestComparePrefixedIsStringsCompare(t *testing.T) {
	pieces := []string{"", "a", "b", "z", "0", " ", "\x00", "\xff", "é", "ab", "connaugh", "connaught"}
	rng := rand.New(rand.NewPCG(3, 4))
	gen := func() string {
		var b strings.Builder
		for k := rng.IntN(5); k > 0; k-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	for n := 0; n < 50000; n++ {
		a, b := gen(), gen()
		if got, want := comparePrefixed(prefix8(a), prefix8(b), a, b), strings.Compare(a, b); got != want {
			t.Fatalf("comparePrefixed(%q, %q) = %d, want %d", a, b, got, want)
		}
	}
}
