package postal_test

import (
	"errors"
	"testing"

	"github.com/pinsight/pinsight/domain/postal"
)

func TestParsePincode(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"110001", "110001", true},
		{"999999", "999999", true},
		{" 560001\t", "560001", true},
		{"011001", "011001", true}, // well-formed; no office has it (not found)
		{"000000", "000000", true},
		{"11001", "", false},
		{"1100011", "", false},
		{"abcdef", "", false},
		{"11000a", "", false},
		{"110 001", "", false},
		{"-11001", "", false},
		{"+110001", "", false},
		{"１１０００１", "", false}, // full-width digits
		{"", "", false},
	}
	for _, tt := range tests {
		got, err := postal.ParsePincode(tt.in)
		if string(got) != tt.want || (err == nil) != tt.ok {
			t.Errorf("ParsePincode(%q) = %q, %v; want %q, ok %v", tt.in, got, err, tt.want, tt.ok)
			continue
		}
		var ve *postal.ValidationError
		if !tt.ok && (!errors.As(err, &ve) || len(ve.Fields["pincode"]) != 1) {
			t.Errorf("ParsePincode(%q) error = %v, want a ValidationError on pincode", tt.in, err)
		}
	}
}

// TestValidPincode: published PINs never start with 0, while lookups take
// any six digits.
func TestValidPincode(t *testing.T) {
	for s, want := range map[string]bool{"110001": true, "999999": true, "011001": false, "000000": false, "11001": false, " 110001": false, "11000a": false} {
		if got := postal.ValidPincode(s); got != want {
			t.Errorf("ValidPincode(%q) = %v, want %v", s, got, want)
		}
	}
}
