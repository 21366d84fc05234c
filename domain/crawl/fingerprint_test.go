package crawl_test

import (
	"fmt"
	"math/bits"
	"testing"

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
