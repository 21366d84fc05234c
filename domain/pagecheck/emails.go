package pagecheck

import "regexp"

// email matches an e-mail address.
var email = regexp.MustCompile(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}`)

// findEmails returns what email.FindAllString(text, -1) returns, but runs
// the expression only on the short window around each '@' (the run of
// address characters on either side) instead of over the whole text: an
// unanchored scan of a 300 KB page costs milliseconds, a window costs
// nanoseconds. The window starts no earlier than the end of the previous
// match, so matches never overlap, as with FindAllString.
func findEmails(text string) []string {
	var out []string
	done := 0 // the end of the previous match
	for i := 0; i < len(text); i++ {
		if text[i] != '@' {
			continue
		}
		start := i
		for start > done && isLocalByte(text[start-1]) {
			start--
		}
		end := i + 1
		for end < len(text) && isDomainByte(text[end]) {
			end++
		}
		if loc := email.FindStringIndex(text[start:end]); loc != nil {
			out = append(out, text[start+loc[0]:start+loc[1]])
			done = start + loc[1]
			i = done - 1
		}
	}
	return out
}

// isLocalByte reports whether b may stand in the local part of an address
// as email reads it.
func isLocalByte(b byte) bool {
	return isDomainByte(b) || b == '_' || b == '%' || b == '+'
}

// isDomainByte reports whether b may stand in the domain of an address as
// email reads it.
func isDomainByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '.' || b == '-'
}
