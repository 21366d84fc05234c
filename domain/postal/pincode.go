package postal

import "strings"

// Pincode is a 6-digit Indian PIN code, [1-9][0-9]{5}.
type Pincode string

// ParsePincode validates a PIN code (surrounding white space ignored).
func ParsePincode(s string) (Pincode, error) {
	s = strings.TrimSpace(s)
	if !ValidPincode(s) {
		return "", Invalid("pincode", "must be 6 digits, the first not 0")
	}
	return Pincode(s), nil
}

// ValidPincode reports whether s is exactly a PIN code.
func ValidPincode(s string) bool {
	if len(s) != 6 || s[0] < '1' || s[0] > '9' {
		return false
	}
	for i := 1; i < 6; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
