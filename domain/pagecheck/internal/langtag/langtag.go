package langtag

import (
	"sort"
	"strings"
)

//go:generate go run subtags_gen.go

// Language tags (BCP 47, RFC 5646) validated against the subtags of the
// IANA Language Subtag Registry embedded in subtags.go.

// ValidHreflang accepts what search engines read in hreflang: x-default, or
// language[-script][-region] with each subtag in the registry (a language
// code of two or three letters, a script of four, a region of two letters
// or three digits), in any letter case; "en_GB" and "en-UK" are refused.
func ValidHreflang(s string) bool {
	if strings.EqualFold(s, "x-default") {
		return true
	}
	parts := strings.Split(s, "-")
	if len(parts) > 3 || !isLanguage(parts[0]) {
		return false
	}
	rest := parts[1:]
	if len(rest) > 0 && len(rest[0]) == 4 {
		if !isScript(rest[0]) {
			return false
		}
		rest = rest[1:]
	}
	if len(rest) == 1 && isRegion(rest[0]) {
		rest = rest[1:]
	}
	return len(rest) == 0
}

// Valid accepts a well-formed BCP 47 language tag whose language,
// extended language, script and region subtags are in the registry:
// language{2,3}[-extlang{3}]{0,3}[-script][-region](-variant)*(-singleton(-ext)+)*[-x(-private)+],
// or a private-use tag (x-...). Variants and extensions are checked for
// form only; grandfathered tags (i-klingon) are refused.
func Valid(s string) bool {
	parts := strings.Split(s, "-")
	i := 0
	if !strings.EqualFold(parts[0], "x") {
		if !isLanguage(parts[0]) {
			return false
		}
		i = 1
		for n := 0; n < 3 && i < len(parts) && len(parts[i]) == 3 && isAlpha(parts[i]); n++ { // extlang
			if !isLanguage(parts[i]) {
				return false
			}
			i++
		}
		if i < len(parts) && len(parts[i]) == 4 && isAlpha(parts[i]) {
			if !isScript(parts[i]) {
				return false
			}
			i++
		}
		if i < len(parts) && (len(parts[i]) == 2 && isAlpha(parts[i]) || len(parts[i]) == 3 && isDigits(parts[i])) {
			if !isRegion(parts[i]) {
				return false
			}
			i++
		}
		for i < len(parts) && isVariant(parts[i]) {
			i++
		}
		for i < len(parts) && len(parts[i]) == 1 && !strings.EqualFold(parts[i], "x") { // extensions
			if !isAlnum(parts[i]) {
				return false
			}
			n := 0
			for i++; i < len(parts) && len(parts[i]) >= 2 && len(parts[i]) <= 8 && isAlnum(parts[i]); i++ {
				n++
			}
			if n == 0 {
				return false
			}
		}
		if i == len(parts) {
			return true
		}
	}
	if !strings.EqualFold(parts[i], "x") || i+1 == len(parts) { // private use
		return false
	}
	for _, p := range parts[i+1:] {
		if len(p) < 1 || len(p) > 8 || !isAlnum(p) {
			return false
		}
	}
	return true
}

// isVariant reports whether s has the form of a variant subtag: five to
// eight letters or digits, or a digit and three more.
func isVariant(s string) bool {
	return isAlnum(s) && (len(s) >= 5 && len(s) <= 8 || len(s) == 4 && s[0] >= '0' && s[0] <= '9')
}

func isLanguage(s string) bool {
	switch {
	case len(s) == 2 && isAlpha(s):
		return inTable(languages2, strings.ToLower(s))
	case len(s) == 3 && isAlpha(s):
		return inTable(languages3, strings.ToLower(s))
	}
	return false
}

func isScript(s string) bool {
	return len(s) == 4 && isAlpha(s) && inTable(scripts, strings.ToLower(s))
}

func isRegion(s string) bool {
	switch {
	case len(s) == 2 && isAlpha(s):
		return inTable(regions2, strings.ToLower(s))
	case len(s) == 3 && isDigits(s):
		return inTable(regionsM49, s)
	}
	return false
}

// inTable reports whether s is an entry of table, a sorted run of entries
// of len(s) bytes each.
func inTable(table, s string) bool {
	w := len(s)
	n := len(table) / w
	i := sort.Search(n, func(i int) bool { return table[i*w:i*w+w] >= s })
	return i < n && table[i*w:i*w+w] == s
}

func isAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func isAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9') && (c|0x20 < 'a' || c|0x20 > 'z') {
			return false
		}
	}
	return s != ""
}
