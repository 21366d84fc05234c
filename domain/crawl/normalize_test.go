package crawl_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/domain/crawl"
)

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"HTTP://Example.COM", "http://example.com/"},
		{"https://example.com:443/a#frag", "https://example.com/a"},
		{"http://example.com:80/", "http://example.com/"},
		{"http://example.com:0080/", "http://example.com/"},
		{"https://example.com:80/", "https://example.com:80/"},
		{"http://example.com:8080/x", "http://example.com:8080/x"},
		{"http://example.com./a", "http://example.com/a"},
		{"http://example.com/a%2fb%7e", "http://example.com/a%2Fb~"},
		{"http://example.com/%7Euser/%41", "http://example.com/~user/A"},
		{"http://example.com/index.html", "http://example.com/index.html"},
		{"http://example.com/dir/", "http://example.com/dir/"},
		{"http://example.com/a/./b/../c", "http://example.com/a/c"},
		{"http://example.com/a/%2e%2E/b", "http://example.com/b"},
		{"http://example.com/../../x", "http://example.com/x"},
		{"http://example.com/a b", "http://example.com/a%20b"},
		{"http://example.com/caf\u00e9", "http://example.com/caf%C3%A9"},
		{"http://example.com/?b=2&a=1&a=0", "http://example.com/?a=0&a=1&b=2"},
		{"http://example.com/?z&&y=%3d&", "http://example.com/?y=%3D&z"},
		{"http://example.com/?a-b=1&a=2", "http://example.com/?a=2&a-b=1"},
		{"http://example.com/?", "http://example.com/"},
		{"http://example.com/p?q=%7e#x", "http://example.com/p?q=~"},
		{"http://B\u00fccher.Example/", "http://xn--bcher-kva.example/"},
		{"http://m\u00fcnchen.de/", "http://xn--mnchen-3ya.de/"},
		{"http://espa\u00f1a.com/", "http://xn--espaa-rta.com/"},
		{"http://\u65e5\u672c\u8a9e\u3002jp/", "http://xn--wgv71a119e.jp/"},
		{"http://[2001:DB8::1]:8080/", "http://[2001:db8::1]:8080/"},
		{" https://example.com/x ", "https://example.com/x"},
	}
	for _, tt := range tests {
		got, err := crawl.Normalize(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			continue
		}
		if again, _ := crawl.Normalize(got); again != got {
			t.Errorf("Normalize is not idempotent on %q: %q", got, again)
		}
	}
}

func TestNormalizeRefuses(t *testing.T) {
	for _, in := range []string{
		"", "/relative", "mailto:a@example.com", "javascript:alert(1)", "ftp://example.com/",
		"http://user:pw@example.com/", "http:///path", "http://127.1/", "http://0x7f000001/",
		"http://exa mple.com/", "http://A..", "http://a..b/", "http://.example.com/", "http://example.com:0/", "http://example.com:99999/", "http://%zz/",
		"http://" + strings.Repeat("\u00e9", 60) + ".com/",
	} {
		if got, err := crawl.Normalize(in); !errors.Is(err, crawl.ErrNotCrawlable) {
			t.Errorf("Normalize(%q) = %q, %v; want ErrNotCrawlable", in, got, err)
		}
	}
}

func TestResolve(t *testing.T) {
	base := "https://example.com/blog/post/"
	tests := []struct{ href, want string }{
		{"../", "https://example.com/blog/"},
		{"other", "https://example.com/blog/post/other"},
		{"/About#team", "https://example.com/About"},
		{"//Sub.Example.com:443", "https://sub.example.com/"},
		{"?page=2&sort=a", "https://example.com/blog/post/?page=2&sort=a"},
		{"http://example.com", "http://example.com/"},
		{"  index.html  ", "https://example.com/blog/post/index.html"},
	}
	for _, tt := range tests {
		if got, err := crawl.Resolve(base, tt.href); err != nil || got != tt.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", tt.href, got, err, tt.want)
		}
	}
	for _, href := range []string{"mailto:x@example.com", "tel:+911234", "javascript:void(0)", "http://[::1"} {
		if got, err := crawl.Resolve(base, href); err == nil {
			t.Errorf("Resolve(%q) = %q, want refused", href, got)
		}
	}
}

func ExampleNormalize() {
	u, _ := crawl.Normalize("HTTPS://Example.com:443/a/../Shop/%7eitems?sort=asc&page=2#reviews")
	fmt.Println(u)
	// Output: https://example.com/Shop/~items?page=2&sort=asc
}
