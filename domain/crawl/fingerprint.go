package crawl

import (
	"math/bits"
	"strings"
	"unicode"

	"github.com/pinsight/pinsight/domain/webpage"
)

// Near-duplicate detection: a page's main text is reduced to a 64-bit
// SimHash over its word shingles, and two pages are nearly the same when
// their fingerprints differ in at most NearDuplicateBits bits.
const (
	// ShingleWords is the number of consecutive words in a shingle.
	ShingleWords = 3
	// NearDuplicateBits is the largest Hamming distance between the
	// fingerprints of two pages whose text is nearly the same.
	NearDuplicateBits = 3
)

// Fingerprint is the SimHash of a text: the text is split into words
// (runs of letters and digits, lower-cased), each run of ShingleWords
// consecutive words (the whole text when it is shorter) is hashed (64-bit
// FNV-1a, then mixed), and bit i of the fingerprint is set when more
// shingles have bit i set than clear. Equal texts give equal fingerprints,
// and texts that share most shingles give fingerprints a few bits apart.
// A text without words gives 0, which means no fingerprint; any other
// text gives a non-zero one.
func Fingerprint(text string) uint64 {
	// The last ShingleWords words, lower-cased: word i in ring[i%ShingleWords].
	var backing [ShingleWords][32]byte
	var ring [ShingleWords][]byte
	for i := range ring {
		ring[i] = backing[i][:0]
	}
	var ones bitCounts // shingles with bit i set
	words := 0
	for w := range strings.FieldsFuncSeq(text, notWordRune) {
		ring[words%ShingleWords] = webpage.AppendLower(ring[words%ShingleWords][:0], w)
		words++
		if words >= ShingleWords {
			ones.add(shingleHash(&ring, words-ShingleWords, ShingleWords))
		}
	}
	if words == 0 {
		return 0
	}
	if words < ShingleWords { // one shingle: the whole text
		ones.add(shingleHash(&ring, 0, words))
	}
	n := max(words-ShingleWords+1, 1)
	var fp uint64
	for b, v := range ones.total() {
		if 2*v > n { // more shingles with the bit set than clear
			fp |= 1 << b
		}
	}
	if fp == 0 {
		fp = 1 // 0 means no text
	}
	return fp
}

// notWordRune reports whether r separates the words of a fingerprinted
// text (lower-casing keeps a rune a letter or a digit or not, so the words
// of a lower-cased text are its words lower-cased).
func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// shingleHash is the mixed hash of count words of ring from word first
// on, separated by single spaces.
func shingleHash(ring *[ShingleWords][]byte, first, count int) uint64 {
	h := uint64(fnvOffset)
	for j := range count {
		if j > 0 {
			h = fnvByte(h, ' ')
		}
		for _, c := range ring[(first+j)%ShingleWords] {
			h = fnvByte(h, c)
		}
	}
	return mix64(h)
}

// FNV-1a, 64 bits (hash/fnv's, without its allocation per shingle).
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// bitCounts counts, for each of 64 bits, the values added with it set:
// eight at a time, in the eight byte-wide lanes of a word per byte of the
// values (a lane holds at most 255 before it is flushed into counts).
type bitCounts struct {
	counts [64]int
	lanes  [8]uint64 // lane k of lanes[b]: bit 8b+k
	held   int       // values in lanes
}

// spread maps a byte to its eight bits, bit k in byte k.
var spread = func() (t [256]uint64) {
	for v := range t {
		for k := range 8 {
			if v>>k&1 != 0 {
				t[v] |= 1 << (8 * k)
			}
		}
	}
	return t
}()

// add counts the bits set in x.
func (c *bitCounts) add(x uint64) {
	for b := range c.lanes {
		c.lanes[b] += spread[byte(x>>(8*b))]
	}
	if c.held++; c.held == 255 {
		c.flush()
	}
}

func (c *bitCounts) flush() {
	for b, l := range c.lanes {
		for k := range 8 {
			c.counts[8*b+k] += int(l >> (8 * k) & 0xff)
		}
	}
	c.lanes, c.held = [8]uint64{}, 0
}

// total is the counts of every bit.
func (c *bitCounts) total() [64]int {
	c.flush()
	return c.counts
}

// fnvByte is h with b hashed in.
func fnvByte(h uint64, b byte) uint64 { return (h ^ uint64(b)) * fnvPrime }

// mix64 spreads a hash's bits (the SplitMix64 finaliser), so that every
// fingerprint bit depends on the whole shingle.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// NearlySame reports whether two fingerprints (non-zero) stand for the
// same or nearly the same text: at most NearDuplicateBits bits differ.
func NearlySame(a, b uint64) bool {
	return a != 0 && b != 0 && bits.OnesCount64(a^b) <= NearDuplicateBits
}
