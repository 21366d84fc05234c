package crawl

import (
	"math/rand"
	"testing"
)

// The lane counts of Fingerprint's votes equal a count bit by bit, past
// the flushes of the lanes (every 255 values) too.
func TestBitCountsCountEachBit(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for _, n := range []int{0, 1, 254, 255, 256, 600, 5000} {
		var want [64]int
		var c bitCounts
		for i := range n {
			x := r.Uint64()
			if i%7 == 0 {
				x = ^uint64(0) // every lane at its largest
			}
			c.add(x)
			for b := range want {
				want[b] += int(x >> b & 1)
			}
		}
		if got := c.total(); got != want {
			t.Errorf("%d values: counts %v, want %v", n, got, want)
		}
	}
}
