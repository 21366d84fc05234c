package crawl_test

import (
	"testing"

	"github.com/pinsight/pinsight/domain/crawl"
)

// normalCorpus is URLs in normal form and near it: each differs from a
// normal one in a way the shortcut must notice.
var normalCorpus = []string{
	"http://example.com/", "https://example.com/a/b", "http://127.0.0.1:8080/p/12", "http://example.com:8080/x?a=1&b=2",
	"http://example.com/x?a=1&a=0", "http://example.com/x?a-b=1&a=2", "http://example.com/x?a=2&a-b=1", "http://example.com/x?a&a=",
	"http://example.com/x?", "http://example.com/x?&a=1", "http://example.com/x?a=1&", "http://example.com/x?a=%3d", "http://example.com/x?a=%3D",
	"http://example.com/x?a=%7E", "http://example.com/x?a=b#c", "http://example.com/x#", "http://example.com/x?a=1#f",
	"http://example.com:80/", "https://example.com:443/", "https://example.com:80/", "http://example.com:443/", "http://example.com:0/",
	"http://example.com:08080/", "http://example.com:65535/", "http://example.com:65536/", "http://example.com:99999/", "http://example.com:/",
	"http://example.com:8x/", "http://example.com", "http://Example.com/", "HTTP://example.com/", "http://example.com./", "http://.example.com/",
	"http://exa_mple.com/", "http://a..b/", "http://A..", "http://a../x", "http://-a.example/", "http://127.1/", "http://0x7f000001/", "http://127.0.0.01/", "http://1.2.3.4.5/",
	"http://256.0.0.1/", "http://[::1]/", "http://[::1]:8080/", "http://user@example.com/", "http://user:pw@example.com/", "http:///x",
	"http://example.com/a/./b", "http://example.com/a/../b", "http://example.com/.", "http://example.com/..", "http://example.com/a/.",
	"http://example.com/.a/..b/...", "http://example.com/a.b/c..d", "http://example.com//a//", "http://example.com/a%2Fb", "http://example.com/%41",
	"http://example.com/a b", "http://example.com/caf\u00e9", "http://example.com/a\tb", "http://example.com/a\x7fb", "http://example.com/{x}",
	"http://example.com/a|b", "http://example.com/a\"b", "http://example.com/a'b", "http://example.com/(a)*!", "http://example.com/$&+,:;=@",
	"http://example.com/~user", "http://example.com/a^b", "http://example.com/a`b", "http://example.com/a\\b", "http://example.com/a[b]",
	"http://example.com/?q", "http://example.com/p?q=a b", "http://example.com/p?q=\u00e9", "http://example.com/p?b=1;a=2", "http://example.com/p?a=1/2",
	" http://example.com/", "http://example.com/ ", "http://example.com/\n", "ftp://example.com/", "https:/example.com/", "http:example.com/",
	"http://b\u00fccher.example/", "http://xn--bcher-kva.example/", "http://example.com:8080", "http://%65xample.com/", "http://example.com%2F/",
}

// TestNormalShortcut: Normalize's shortcut for URLs already normal gives
// what parsing and writing them again gives, and takes common URLs.
func TestNormalShortcut(t *testing.T) {
	for _, raw := range normalCorpus {
		checkNormalize(t, raw)
	}
	for _, raw := range []string{"http://example.com/", "https://www.example.com/blog/a-post_1.html", "http://127.0.0.1:38765/p/12",
		"https://example.com/search?page=2&q=garden", "http://example.com/a/b/"} {
		if !crawl.IsNormal(raw) {
			t.Errorf("IsNormal(%q) = false, want true", raw)
		}
	}
}

// FuzzNormalize: Normalize (its shortcut included) agrees with parsing and
// writing again.
func FuzzNormalize(f *testing.F) {
	for _, raw := range normalCorpus {
		f.Add(raw)
	}
	f.Fuzz(checkNormalize)
}

// checkNormalize checks Normalize of raw, and the shortcut's test, against
// parsing and writing again.
func checkNormalize(t *testing.T, raw string) {
	got, err := crawl.Normalize(raw)
	want, wantErr := crawl.NormalizeParsed(raw)
	if got != want || (err == nil) != (wantErr == nil) {
		t.Fatalf("Normalize(%q) = %q, %v; parsed: %q, %v", raw, got, err, want, wantErr)
	}
	if crawl.IsNormal(raw) && (wantErr != nil || want != raw) {
		t.Fatalf("IsNormal(%q), but it normalises to %q, %v", raw, want, wantErr)
	}
	if err == nil {
		if again, err := crawl.Normalize(got); again != got || err != nil {
			t.Fatalf("Normalize is not idempotent on %q: %q gives %q, %v", raw, got, again, err)
		}
	}
}
