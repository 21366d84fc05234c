package css

import (
	"strconv"
	"strings"
)

// What can be read of a page's font sizes without rendering it: the rules
// of its inline <style> elements and the style attributes of <html> and
// <body>. Linked style sheets are not fetched; rules inside at-rules
// (@media, @supports, @layer) apply only conditionally and are skipped;
// !important is not weighed; a size in viewport units, calc(), clamp() or
// var() cannot be computed.

// DefaultFontPx is the browsers' default font size (medium).
const DefaultFontPx = 16

// Rule is one style rule: its selector list and declaration block.
type Rule struct {
	Selector, Block string
}

// Rules lists the style rules at the top level of a style sheet, in
// order; comments, at-rules and their blocks are skipped.
func Rules(css string) []Rule {
	css = stripCSSComments(css)
	var out []Rule
	for i := 0; i < len(css); {
		for i < len(css) && (isCSSSpace(css[i]) || css[i] == '}' || css[i] == ';') {
			i++
		}
		if i >= len(css) {
			break
		}
		open := indexOutsideStrings(css, i, "{;")
		if open < 0 {
			break
		}
		if css[open] == ';' { // @import ...; or junk
			i = open + 1
			continue
		}
		end := matchBrace(css, open)
		if css[i] != '@' {
			out = append(out, Rule{Selector: strings.TrimSpace(css[i:open]), Block: css[open+1 : end]})
		}
		i = end + 1
	}
	return out
}

// Decls calls fn with each declaration of a block (property lower case,
// value trimmed, !important removed); nested rules are skipped.
func Decls(block string, fn func(prop, value string)) {
	for i := 0; i < len(block); {
		end := indexOutsideStrings(block, i, ";{")
		if end < 0 {
			end = len(block)
		}
		if end < len(block) && block[end] == '{' { // a nested rule: skip it
			i = matchBrace(block, end) + 1
			continue
		}
		if prop, value, ok := strings.Cut(block[i:end], ":"); ok {
			value = strings.TrimSpace(value)
			if l := strings.ToLower(value); strings.HasSuffix(l, "!important") {
				value = strings.TrimSpace(value[:len(value)-len("!important")])
			}
			fn(strings.ToLower(strings.TrimSpace(prop)), value)
		}
		i = end + 1
	}
}

func isCSSSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// stripCSSComments removes /* ... */ comments.
func stripCSSComments(s string) string {
	if !strings.Contains(s, "/*") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "/*")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		j := strings.Index(s[i+2:], "*/")
		if j < 0 {
			return b.String()
		}
		s = s[i+2+j+2:]
	}
}

// indexOutsideStrings returns the index of the first byte of chars at or
// after i that is not inside a quoted string or parentheses; -1 when none.
func indexOutsideStrings(s string, i int, chars string) int {
	depth := 0
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\'':
			i = skipString(s, i)
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case depth == 0 && strings.IndexByte(chars, c) >= 0:
			return i
		}
	}
	return -1
}

// skipString returns the index of the quote closing the string opened at
// i (len(s)-1 when unclosed).
func skipString(s string, i int) int {
	q := s[i]
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			return i
		}
	}
	return len(s) - 1
}

// matchBrace returns the index of the brace closing the one at open
// (len(s) when unclosed).
func matchBrace(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '"', '\'':
			i = skipString(s, i)
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return len(s)
}

// fontKeywords are the absolute font-size keywords in pixels (CSS Fonts 4).
var fontKeywords = map[string]float64{
	"xx-small": 9, "x-small": 10, "small": 13, "medium": 16, "large": 18, "x-large": 24, "xx-large": 32, "xxx-large": 48,
}

// absoluteUnits are CSS absolute length units in pixels.
var absoluteUnits = map[string]float64{"px": 1, "pt": 96.0 / 72, "pc": 16, "in": 96, "cm": 96 / 2.54, "mm": 96 / 25.4, "q": 96 / 101.6}

// FontSizePx computes a font-size value in pixels: parent is the parent
// element's size (for em, %, smaller, larger, inherit), root the root
// element's (for rem). ok is false when the value cannot be computed
// statically.
func FontSizePx(v string, parent, root float64) (float64, bool) {
	v = strings.ToLower(strings.TrimSpace(v))
	if px, ok := fontKeywords[v]; ok {
		return px, true
	}
	switch v {
	case "inherit", "unset":
		return parent, true
	case "initial":
		return DefaultFontPx, true
	case "smaller":
		return parent / 1.2, true
	case "larger":
		return parent * 1.2, true
	}
	end := 0
	for end < len(v) && (v[end] >= '0' && v[end] <= '9' || v[end] == '.' || end == 0 && (v[end] == '+' || v[end] == '-')) {
		end++
	}
	n, err := strconv.ParseFloat(v[:end], 64)
	if err != nil || n < 0 {
		return 0, false
	}
	unit := v[end:]
	switch unit {
	case "em":
		return n * parent, true
	case "%":
		return n * parent / 100, true
	case "rem":
		return n * root, true
	case "":
		return n, n == 0
	}
	if k, ok := absoluteUnits[unit]; ok {
		return n * k, true
	}
	return 0, false
}

// ShorthandSize is the font-size part of a font shorthand value ("italic
// bold 10px/1.4 Georgia, serif" -> "10px"); "" when it has none that can
// be found (a system font such as caption).
func ShorthandSize(v string) string {
	for _, tok := range strings.Fields(strings.ToLower(v)) {
		size, _, _ := strings.Cut(tok, "/")
		if _, ok := fontKeywords[size]; ok {
			return size
		}
		if size != "" && (size[0] >= '0' && size[0] <= '9' || size[0] == '.') {
			if _, ok := FontSizePx(size, DefaultFontPx, DefaultFontPx); ok && !isPlainNumber(size) {
				return size
			}
			if strings.IndexFunc(size, func(r rune) bool { return r >= 'a' && r <= 'z' || r == '%' }) >= 0 {
				return size // a size in a unit that cannot be computed
			}
		}
	}
	return ""
}

// isPlainNumber reports whether s is a number without a unit (a font
// weight such as 700 in a shorthand).
func isPlainNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}
