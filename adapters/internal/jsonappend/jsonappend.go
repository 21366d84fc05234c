// Package jsonappend appends JSON values to byte slices in exactly the
// bytes encoding/json writes for them (without HTML escaping), for the
// adapters that encode hot data by hand instead of by reflection.
package jsonappend

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// Float appends f as encoding/json writes a float64 (ES6 number
// form: no exponent from 1e-6 to 1e21). f must be finite.
func Float(dst []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' { // e-09 -> e-9, as encoding/json
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

// String appends s quoted as encoding/json writes it without HTML
// escaping: quote, backslash and control characters escaped, invalid UTF-8
// as U+FFFD, U+2028 and U+2029 escaped.
func String(dst []byte, s string) []byte { return appendString(dst, s, true) }

// SlogString appends s quoted as log/slog's JSON handler writes it: as
// String, but with backspace and form feed as \u0008 and \u000c.
func SlogString(dst []byte, s string) []byte { return appendString(dst, s, false) }

// plainASCII marks the ASCII bytes a JSON string holds as they are: all
// but the control characters, quote and backslash (one load per byte on
// the hot path instead of three comparisons).
var plainASCII = func() (t [utf8.RuneSelf]bool) {
	for b := range t {
		t[b] = b >= 0x20 && b != '"' && b != '\\'
	}
	return t
}()

// appendString appends s quoted; short writes \b and \f as such.
func appendString(dst []byte, s string, short bool) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if plainASCII[b] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				if !short {
					dst = append(dst, '\\', 'u', '0', '0', '0', '8')
					break
				}
				dst = append(dst, '\\', 'b')
			case '\f':
				if !short {
					dst = append(dst, '\\', 'u', '0', '0', '0', 'c')
					break
				}
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// OptString appends s, or null when it is nil.
func OptString(dst []byte, s *string) []byte {
	if s == nil {
		return append(dst, "null"...)
	}
	return String(dst, *s)
}
