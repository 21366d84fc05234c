package account_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/domain/account"
)

func TestNormalizeEmail(t *testing.T) {
	tests := []struct {
		name, in string
		want     string // the address; empty when refused
		problem  string // a part of the message on email when refused
	}{
		{"kept", "ada@example.com", "ada@example.com", ""},
		{"trimmed and lower-cased", "  Ada@Example.COM\t", "ada@example.com", ""},
		{"non-ASCII local part", "ädä@example.com", "ädä@example.com", ""},
		{"empty", "  ", "", "is required"},
		{"display name", "Ada <ada@example.com>", "", "valid e-mail address"},
		{"no dot in the domain", "ada@localhost", "", "valid e-mail address"},
		{"invalid UTF-8", "ada\xff@example.com", "", "UTF-8"},
		{"invalid UTF-8, upper case", "Ada\x85@example.com", "", "UTF-8"},
		{"replacement character (invalid JSON text)", "ada\ufffd@example.com", "", "UTF-8"},
		{"NUL", "ada\x00@example.com", "", "control"},
		{"C1 control", "ada\u0085@example.com", "", "control"},
		{"right-to-left override", "ada\u202e@example.com", "", "invisible"},
		{"zero-width space", "a\u200bda@example.com", "", "invisible"},
		{"no-break space", "ada\u00a0@example.com", "", "spaces"},
		{"zero-width joiner (fine in text, not in an identifier)", "a\u200dda@example.com", "", "invisible"},
		{"zero-width non-joiner", "a\u200cda@example.com", "", "invisible"},
		{"too long", strings.Repeat("a", 250) + "@example.com", "", "at most 254"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := account.NormalizeEmail(tt.in)
			if tt.problem == "" {
				if err != nil || got != tt.want {
					t.Fatalf("NormalizeEmail(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
				}
				return
			}
			var ve *account.ValidationError
			if !errors.As(err, &ve) || len(ve.Fields["email"]) != 1 || !strings.Contains(ve.Fields["email"][0], tt.problem) {
				t.Fatalf("NormalizeEmail(%q) = %q, %v; want a message on email containing %q", tt.in, got, err, tt.problem)
			}
		})
	}
}
