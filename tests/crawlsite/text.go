package crawlsite

import (
	"hash/fnv"
	"math/bits"
	"math/rand/v2"
	"strings"

	"github.com/pinsight/pinsight/domain/crawl"
)

// syllables make the fixture's made-up words: thousands of distinct words,
// so that the three-word shingles of two pages' texts hardly ever meet.
var syllables = []string{"ka", "lo", "mi", "ra", "te", "su", "no", "vi", "da", "pe", "zu", "ho",
	"gri", "ban", "tor", "lex", "mun", "sa", "ri", "fo", "ne", "qua", "bel", "dor"}

// words are n made-up words drawn from seed: the same seed gives the same
// words.
func words(seed string, n int) []string {
	h := fnv.New64a()
	h.Write([]byte(seed))
	r := rand.New(rand.NewPCG(h.Sum64(), 0x9e3779b97f4a7c15))
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for range 2 + r.IntN(2) {
			b.WriteString(syllables[r.IntN(len(syllables))])
		}
		out[i] = b.String()
	}
	return out
}

// text is a page's main text drawn from seed.
func text(seed string, n int) string { return strings.Join(words(seed, n), " ") }

// nearPair is two texts whose fingerprints (crawl.Fingerprint) differ but
// are nearly the same (crawl.NearlySame): a text of 200 words and the same
// text with one word replaced, the first replacement found that keeps the
// fingerprints within crawl.NearDuplicateBits.
func nearPair() (string, string) {
	base := words("near-duplicate", 200)
	a := crawl.Fingerprint(strings.Join(base, " "))
	for i := len(base) - 1; i >= 0; i-- {
		v := append([]string(nil), base...)
		v[i] = "replaced"
		b := crawl.Fingerprint(strings.Join(v, " "))
		if d := bits.OnesCount64(a ^ b); d >= 1 && crawl.NearlySame(a, b) {
			return strings.Join(base, " "), strings.Join(v, " ")
		}
	}
	panic("crawlsite: no near-duplicate text found")
}
