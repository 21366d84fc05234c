package account_test

import (
	"strings"
	"testing"

	"github.com/pinsight/pinsight/domain/account"
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
