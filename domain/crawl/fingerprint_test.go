package crawl_test

import (
	"fmt"
	"hash/fnv"
	"math/bits"
	"strings"
	"testing"
	"unicode"

	"github.com/pinsight/pinsight/domain/crawl"
)

func TestFingerprint(t *testing.T) {
	base := words("w", 400, nil)
	if crawl.Fingerprint("") != 0 || crawl.Fingerprint(" ,.;! ") != 0 {
		t.Error("a text without words has a fingerprint")
	}
	if crawl.Fingerprint("one") == 0 || crawl.Fingerprint("one two") == 0 {
		t.Error("a short text has no fingerprint")
	}
	if crawl.Fingerprint("Hello, World! Nice day.") != crawl.Fingerprint("hello world nice   day") {
		t.Error("case, punctuation and spacing change the fingerprint")
	}
	if crawl.Fingerprint(base) != crawl.Fingerprint(words("w", 400, nil)) {
		t.Error("equal texts give different fingerprints")
	}
	near := crawl.Fingerprint(words("w", 400, map[int]string{200: "changed"}))
	if !crawl.NearlySame(crawl.Fingerprint(base), near) {
		t.Errorf("one word in 400 changed: distance %d", bits.OnesCount64(crawl.Fingerprint(base)^near))
	}
	far := 0
	for i := range 50 {
		a, b := crawl.Fingerprint(words(fmt.Sprintf("a%d_", i), 100, nil)), crawl.Fingerprint(words(fmt.Sprintf("b%d_", i), 100, nil))
		if crawl.NearlySame(a, b) {
			far++
		}
	}
	if far != 0 {
		t.Errorf("%d of 50 pairs of unrelated texts were nearly the same", far)
	}
	if crawl.NearlySame(0, 0) || !crawl.NearlySame(0b1111, 0b1000) || crawl.NearlySame(0b1111, 0b10000) {
		t.Error("NearlySame's threshold is wrong")
	}
}

func ExampleNearlySame() {
	a := crawl.Fingerprint("The quick brown fox jumps over the lazy dog near the river bank today")
	b := crawl.Fingerprint("The quick brown fox jumps over the lazy dog near the river bank today!")
	c := crawl.Fingerprint("An entirely different page about tax forms and their filing deadlines")
	fmt.Println(crawl.NearlySame(a, b), crawl.NearlySame(a, c))
	// Output: true false
}

// fingerprintCorpus is texts of every length in shingles, with letter
// case, marks, digits and bytes that are not UTF-8.
var fingerprintCorpus = []string{
	"", " ,.;! ", "one", "one two", "one two three", "Hello, World! Nice day.", "\u0130stanbul \u212Aelvin STRASSE Stra\u00dfe",
	"caf\u00e9 cre\u0300me 42 \u0663\u0664", "a\xffb \xc4 \xb0x", strings.Repeat("word ", 300) + "end", strings.Repeat("\u00c9t\u00e9 ", 40),
}

// TestFingerprintDefinition: Fingerprint is what its definition computes
// the plain way (a lower-cased copy split into words, hash/fnv, a count
// per bit).
func TestFingerprintDefinition(t *testing.T) {
	for _, s := range fingerprintCorpus {
		checkFingerprint(t, s)
	}
}

func FuzzFingerprint(f *testing.F) {
	for _, s := range fingerprintCorpus {
		f.Add(s)
	}
	f.Fuzz(checkFingerprint)
}

// checkFingerprint checks Fingerprint(text) against its definition.
func checkFingerprint(t *testing.T, text string) {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	var want uint64
	if len(words) > 0 {
		n := max(len(words)-crawl.ShingleWords+1, 1)
		var ones [64]int
		for i := range n {
			h := fnv.New64a()
			h.Write([]byte(strings.Join(words[i:min(i+crawl.ShingleWords, len(words))], " ")))
			x := h.Sum64()
			x ^= x >> 30
			x *= 0xbf58476d1ce4e5b9
			x ^= x >> 27
			x *= 0x94d049bb133111eb
			x ^= x >> 31
			for b := range 64 {
				ones[b] += int(x >> b & 1)
			}
		}
		for b, v := range ones {
			if 2*v > n {
				want |= 1 << b
			}
		}
		want = max(want, 1)
	}
	if got := crawl.Fingerprint(text); got != want {
		t.Fatalf("Fingerprint(%.60q) = %#x, want %#x", text, got, want)
	}
}
