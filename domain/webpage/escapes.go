package webpage

import "strings"

// NormalizeEscapes writes the escaped form of a URL path or query (or a
// robots.txt pattern) in one way, so equal addresses compare equal as
// strings: the hex digits of every %XX escape in upper case, escapes of
// unreserved characters (letters, digits, "-", ".", "_", "~") decoded as
// RFC 3986 allows, and every byte that may not appear unescaped (controls,
// space, non-ASCII, a "%" that starts no escape, and `"<>\^`+"`"+`{|}`)
// escaped. Reserved characters keep their form, escaped or not: %2F and
// "/" differ.
func NormalizeEscapes(s string) string {
	start := normalEscapes(s)
	if start == len(s) {
		return s // already in normal form: no copy
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteString(s[:start])
	for i := start; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			d := unhex(s[i+1])<<4 | unhex(s[i+2])
			if isUnreserved(d) {
				b.WriteByte(d)
			} else {
				b.WriteByte('%')
				b.WriteByte(upperHex[d>>4])
				b.WriteByte(upperHex[d&15])
			}
			i += 2
			continue
		}
		if mustEscape(c) {
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// normalEscapes is the length of the longest prefix of s that
// NormalizeEscapes leaves as it is (len(s) when it leaves all of s).
func normalEscapes(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			d := unhex(s[i+1])<<4 | unhex(s[i+2])
			if isUnreserved(d) || s[i+1] != upperHex[d>>4] || s[i+2] != upperHex[d&15] {
				return i
			}
			i += 2
			continue
		}
		if mustEscape(c) {
			return i
		}
	}
	return len(s)
}

const upperHex = "0123456789ABCDEF"

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// mustEscape reports whether c may not appear unescaped in a path or
// query: controls, space, DEL, non-ASCII, a lone "%" and the characters
// RFC 3986 excludes.
func mustEscape(c byte) bool {
	return c <= ' ' || c >= 0x7f || c == '%' || strings.IndexByte("\"<>\\^`{|}", c) >= 0
}
