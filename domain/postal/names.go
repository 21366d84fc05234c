package postal

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// officeSuffixes are the office-type suffixes of published names, as name
// keys (lower case, punctuation removed): "B.O", "BO", "S.O.", "H.O", "GPO"...
var officeSuffixes = []string{"bo", "so", "ho", "po", "gpo"}

// NameKey normalises a name for matching: lower case, letters and digits
// only, words separated by single spaces.
func NameKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		switch {
		case 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || 'A' <= r && r <= 'Z' ||
			r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			if r < utf8.RuneSelf {
				b.WriteByte(byte(unicode.ToLower(r)))
			} else {
				b.WriteRune(unicode.ToLower(r))
			}
		case r == '.' || r == '\'':
			// "B.O" and "S.O." read as one word
		default:
			space = true
		}
	}
	return b.String()
}

// OfficeKey is the matching key of an office name: NameKey without the
// office-type suffix ("Bagalur S.O (Krishnagiri)" and "bagalur so krishnagiri"
// both give "bagalur krishnagiri").
func OfficeKey(name string) string {
	key := NameKey(name) // words separated by single spaces
	first, rest, _ := strings.Cut(key, " ")
	if !hasSuffixWord(rest) {
		return key
	}
	var b strings.Builder
	b.Grow(len(key))
	b.WriteString(first)
	for rest != "" {
		var w string
		w, rest, _ = strings.Cut(rest, " ")
		if !isSuffix(w) {
			b.WriteByte(' ')
			b.WriteString(w)
		}
	}
	return b.String()
}

// hasSuffixWord reports whether a name key has an office-type suffix word.
func hasSuffixWord(key string) bool {
	for key != "" {
		var w string
		w, key, _ = strings.Cut(key, " ")
		if isSuffix(w) {
			return true
		}
	}
	return false
}

func isSuffix(w string) bool {
	for _, s := range officeSuffixes {
		if w == s {
			return true
		}
	}
	return false
}

// compactKey drops the spaces of a key too: used to match LGD names
// ("Dr. B.R. Ambedkar Konaseema" vs "DR B R AMBEDKAR KONASEEMA").
func compactKey(s string) string {
	return strings.ReplaceAll(NameKey(s), " ", "")
}

// smallWords stay lower case in display names.
var smallWords = map[string]bool{"and": true, "of": true, "the": true}

// DisplayName title-cases an upper-case official name ("JAMMU AND KASHMIR" ->
// "Jammu and Kashmir"); mixed-case names are kept as they are.
func DisplayName(s string) string {
	if strings.ToUpper(s) != s && strings.ToLower(s) != s {
		return fixSmallWords(s)
	}
	words := strings.Fields(strings.ToLower(s))
	for i, w := range words {
		if i > 0 && smallWords[w] {
			continue
		}
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		words[i] = string(r)
	}
	return strings.Join(words, " ")
}

// fixSmallWords lower-cases "And", "Of", "The" inside a title-case name.
func fixSmallWords(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		if i > 0 && smallWords[strings.ToLower(w)] {
			words[i] = strings.ToLower(w)
		}
	}
	return strings.Join(words, " ")
}
