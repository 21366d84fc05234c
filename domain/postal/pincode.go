package postal

import "strings"

// Pincode is a 6-digit Indian PIN code as asked for: any six digits (a
// published PIN is [1-9][0-9]{5}; see ValidPincode).
type Pincode string

// PincodeSyntax is the rule a pincode asked for breaks when ParsePincode
// refuses it.
const PincodeSyntax = "must be 6 digits"

// ParsePincode validates the syntax of a PIN code asked for: exactly six
// ASCII digits, surrounding white space ignored. Six digits no office has
// (such as 000000, which no PIN can be) pass: they are not found, not
// invalid.
func ParsePincode(s string) (Pincode, error) {
	s = strings.TrimSpace(s)
	if !sixDigits(s) {
		return "", Invalid("pincode", PincodeSyntax)
	}
	return Pincode(s), nil
}

// ValidPincode reports whether s is exactly a PIN code as India Post
// publishes them: six digits, the first not 0. Loaded data must follow it.
func ValidPincode(s string) bool {
	return sixDigits(s) && s[0] != '0'
}

// sixDigits reports whether s is exactly six ASCII digits.
func sixDigits(s string) bool {
	if len(s) != 6 {
		return false
	}
	for i := range 6 {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
