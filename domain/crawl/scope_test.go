package crawl_test

import (
	"fmt"
	"net/url"
	"testing"

	"github.com/pinsight/pinsight/domain/crawl"
)

func settings(t *testing.T, p crawl.Params) crawl.Settings {
	t.Helper()
	s, err := crawl.NewSettings(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestScope(t *testing.T) {
	same := settings(t, crawl.Params{URL: "https://www.example.com/"}).Scope("")
	subs := settings(t, crawl.Params{URL: "https://www.example.com/", Subdomains: true}).Scope("")
	deep := settings(t, crawl.Params{URL: "https://blog.shop.example.co.uk/", Subdomains: true})
	filtered := settings(t, crawl.Params{URL: "https://example.com/start", Include: []string{"/blog/", "/docs"}, Exclude: []string{"/*.pdf$", "/blog/drafts/"}}).Scope("")
	tests := []struct {
		name            string
		sc              crawl.Scope
		url             string
		onSite, follows bool
	}{
		{"same host", same, "https://www.example.com/a", true, true},
		{"other scheme", same, "http://www.example.com/a", true, true},
		{"bare domain without subdomains", same, "https://example.com/", false, false},
		{"other port", same, "https://www.example.com:8443/", false, false},
		{"bare domain with subdomains", subs, "https://example.com/", true, true},
		{"subdomain", subs, "https://a.b.example.com/", true, true},
		{"look-alike", subs, "https://badexample.com/", false, false},
		{"other site", subs, "https://example.org/", false, false},
		{"below the start host", deep.Scope(""), "https://x.blog.shop.example.co.uk/", true, true},
		{"above the start host without a registrable domain", deep.Scope(""), "https://shop.example.co.uk/", false, false},
		{"registrable domain", deep.Scope("example.co.uk"), "https://shop.example.co.uk/", true, true},
		{"registrable domain, not a parent: ignored", deep.Scope("other.com"), "https://other.com/", false, false},
		{"start url always", filtered, "https://example.com/start", true, true},
		{"included", filtered, "https://example.com/blog/post", true, true},
		{"prefix of a name", filtered, "https://example.com/docsearch", true, true},
		{"not included", filtered, "https://example.com/about", true, false},
		{"excluded pdf", filtered, "https://example.com/docs/a.pdf", true, false},
		{"pdf with query", filtered, "https://example.com/docs/a.pdf?x=1", true, true},
		{"excluded drafts", filtered, "https://example.com/blog/drafts/1", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.sc.OnSite(tt.url); got != tt.onSite {
				t.Errorf("OnSite(%s) = %v", tt.url, got)
			}
			if got := tt.sc.Follows(tt.url); got != tt.follows {
				t.Errorf("Follows(%s) = %v", tt.url, got)
			}
		})
	}
	if !subs.SameHost("http://www.example.com/x") || subs.SameHost("https://a.example.com/") || subs.SameHost("https://www.example.com:81/") {
		t.Error("SameHost: headers would go to another host")
	}
}

// TestPlainHostPort: the scope's reading of a URL's host and port without
// parsing it, when it takes one, is url.Parse's.
func TestPlainHostPort(t *testing.T) {
	for _, u := range append(normalCorpus, "http://example.com", "http://example.com:8080", "http://example.com?x", "http://example.com#x",
		"http://example.com:8080?x/y", "http://example.com/a%zz", "http://example.com/#%zz", "http://example.com:123456/") {
		checkPlainHostPort(t, u)
	}
	if _, _, ok := crawl.PlainHostPort("http://127.0.0.1:38765/p/12?a=1"); !ok {
		t.Error("PlainHostPort refuses a plain URL")
	}
}

func FuzzPlainHostPort(f *testing.F) {
	for _, u := range normalCorpus {
		f.Add(u)
	}
	f.Fuzz(checkPlainHostPort)
}

// checkPlainHostPort checks PlainHostPort of u against url.Parse.
func checkPlainHostPort(t *testing.T, u string) {
	host, port, ok := crawl.PlainHostPort(u)
	if !ok {
		return
	}
	p, err := url.Parse(u)
	if err != nil || p.Hostname() != host || p.Port() != port {
		t.Fatalf("PlainHostPort(%q) = %q, %q; url.Parse reads %v, %v", u, host, port, p, err)
	}
}

func ExampleFilter() {
	include, exclude := []string{"/blog/"}, []string{"/*.pdf$"}
	for _, p := range []string{"/blog/post", "/blog/guide.pdf", "/blog/guide.pdf?v=2", "/about"} {
		fmt.Println(p, crawl.Filter(include, exclude, p))
	}
	// Output:
	// /blog/post true
	// /blog/guide.pdf false
	// /blog/guide.pdf?v=2 true
	// /about false
}

func TestPoliteness(t *testing.T) {
	for _, tc := range []struct {
		url, registrable string
		subdomains       bool
		want             string
	}{
		{"https://www.example.com/a", "example.com", false, "https://www.example.com"},
		{"HTTPS://www.Example.com:443/", "", false, "https://www.example.com"},
		{"http://127.0.0.1:8080/trap/0", "", false, "http://127.0.0.1:8080"},
		{"http://127.0.0.1:8081/", "", false, "http://127.0.0.1:8081"},
		{"http://example.com:80/", "", false, "http://example.com"},
		{"https://www.shop.example.com/", "example.com", true, "*.example.com"},
		{"https://www.shop.example.com/", "", true, "*.shop.example.com"},
		{"https://www.shop.example.com/", "other.com", true, "*.shop.example.com"},
	} {
		s, err := crawl.NewSettings(crawl.Params{URL: tc.url, Subdomains: tc.subdomains})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Politeness(tc.registrable); got != tc.want {
			t.Errorf("Politeness(%s, %q, subdomains %v) = %q, want %q", tc.url, tc.registrable, tc.subdomains, got, tc.want)
		}
	}
}
