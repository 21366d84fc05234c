package account_test

import (
	"strings"
	"testing"

	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/domain/usertext"
)

func TestKeyName(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"kept", "laptop", "laptop"},
		{"trimmed", "  laptop \t", "laptop"},
		{"empty takes the default", " ", "default"},
		{"NUL dropped", "lap\x00top", "laptop"},
		{"control characters dropped", "\x1b[31mred\n", "[31mred"},
		{"only control characters", "\x00\x01", "default"},
		{"invalid UTF-8 dropped", "caf\xe9 ü", "caf ü"},
		{"bidirectional overrides dropped", "\u202Elaptop\u202C", "laptop"},
		{"every bidirectional control dropped", "a\u202Ab\u202Bc\u202Dd\u2066e\u2067f\u2068g\u2069h\u200Ei\u200Fj\u061Ck", "abcdefghijk"},
		{"zero-width space, BOM and soft hyphen dropped", "lap\u200Btop\uFEFF\u00AD", "laptop"},
		{"invisible tag characters dropped", "laptop\U000E0069\U000E0067\U000E006E", "laptop"},
		{"line and paragraph separators dropped", "lap\u2028top\u2029", "laptop"},
		{"only invisible characters", "\u202E\u2066\u200B", "default"},
		{"joiners kept (emoji, Indic scripts)", "\U0001F469\u200D\U0001F4BB \u0915\u094D\u200D\u0937", "\U0001F469\u200D\U0001F4BB \u0915\u094D\u200D\u0937"},
		{"stacked marks cut to the limit", "a" + strings.Repeat("\u0301", 2000) + "b", "a" + strings.Repeat("\u0301", usertext.MaxMarks) + "b"},
		{"cut to the limit", strings.Repeat("é", account.MaxKeyNameLen+5), strings.Repeat("é", account.MaxKeyNameLen)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := account.KeyName(tt.in, "default"); got != tt.want {
				t.Fatalf("KeyName(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
