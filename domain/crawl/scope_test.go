package crawl_test

import (
	"fmt"
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
