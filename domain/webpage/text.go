package webpage

import (
	"unicode"
	"unicode/utf8"
)

// AppendLower appends s, valid UTF-8, lower-cased as strings.ToLower
// writes it, without a copy of s: the audit and the crawl's fingerprint
// lower-case a page's words one by one. Lower-casing keeps a rune a
// letter, a digit or a mark or not, so the words of strings.ToLower(t) are
// those of t, each lower-cased.
func AppendLower(b []byte, s string) []byte {
	for _, r := range s {
		b = utf8.AppendRune(b, unicode.ToLower(r))
	}
	return b
}
