package memory

import (
	"cmp"
	"strings"
)

// prefix8 is the first 8 bytes of s as a big-endian number, zero-padded.
// prefix8(a) < prefix8(b) implies a < b, so comparePrefixed compares
// strings by their prefixes first, without reading them, and reads them
// only when the prefixes are equal.
func prefix8(s string) uint64 {
	var p uint64
	for i := range 8 {
		p <<= 8
		if i < len(s) {
			p |= uint64(s[i])
		}
	}
	return p
}

// comparePrefixed is strings.Compare(a, b), given pa = prefix8(a) and
// pb = prefix8(b).
func comparePrefixed(pa, pb uint64, a, b string) int {
	if pa != pb {
		return cmp.Compare(pa, pb)
	}
	return strings.Compare(a, b)
}
