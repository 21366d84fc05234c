package webpage_test

import (
	"testing"

	"github.com/pinsight/pinsight/domain/webpage"
)

func TestNormalizeEscapes(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/a%2fb", "/a%2Fb"},             // reserved: case only
		{"/%7euser/%41%62", "/~user/Ab"}, // unreserved: decoded
		{"/caf\u00e9", "/caf%C3%A9"},     // non-ASCII: escaped
		{"/a b", "/a%20b"},
		{"/100%", "/100%25"}, // a lone %
		{"/%zz", "/%25zz"},
		{"/%e2%82%ac", "/%E2%82%AC"},
		{"/a?b=1&c=%3d", "/a?b=1&c=%3D"},
		{"/{x}|y", "/%7Bx%7D%7Cy"},
		{"", ""},
		{"/plain/path-1.html", "/plain/path-1.html"},
		{"/a%2F%2fb", "/a%2F%2Fb"}, // normal up to the second escape
		{"/a%2F%41", "/a%2FA"},
		{"/a%2F b", "/a%2F%20b"},
		{"/a%2", "/a%252"},
	}
	for _, tt := range tests {
		if got := webpage.NormalizeEscapes(tt.in); got != tt.want {
			t.Errorf("NormalizeEscapes(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if again := webpage.NormalizeEscapes(tt.want); again != tt.want {
			t.Errorf("NormalizeEscapes is not idempotent on %q: %q", tt.want, again)
		}
	}
}
