package robots_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/robots"
)

const sample = "\ufeffSitemap: https://example.com/sitemap.xml\r\n" +
	"User-agent: *\r\n" +
	"Disallow: /private/\r\n" +
	"Allow: /private/open$\r\n" +
	"Crawl-delay: 2.5\r\n" +
	"\r\n" +
	"User-agent: GPTBot\n" +
	"User-agent: ClaudeBot/1.0 # a version after the token\n" +
	"Disallow: /\n" +
	"\n" +
	"User-agent: googlebot\rDisallow: /nogoogle\rAllow: /\r" +
	"user-agent: Googlebot\nDisallow: /*.pdf$\nCrawl-delay: nope\n" +
	"Sitemap: https://example.com/news.xml\n"

func TestFor(t *testing.T) {
	f := robots.Parse([]byte(sample))
	tests := []struct {
		agent, want, path, rule string
	}{
		{"Pinsight/1.0 (+https://pinsight.example)", "*", "/private/x", "Disallow: /private/"},
		{"Pinsight", "*", "/private/open", ""},
		{"Pinsight", "*", "/private/open/more", "Disallow: /private/"},
		{"gptbot", "gptbot", "/anything", "Disallow: /"},
		{"ClaudeBot", "claudebot", "/", "Disallow: /"},
		{"Googlebot/2.1", "googlebot", "/nogoogle/a", "Disallow: /nogoogle"},
		{"Googlebot", "googlebot", "/doc.pdf", "Disallow: /*.pdf$"}, // two groups merged
		{"Googlebot", "googlebot", "/doc.pdf?x=1", ""},
		{"Googlebot", "googlebot", "/private/x", ""}, // its own groups only
		{"Googlebot-News", "*", "/private/x", "Disallow: /private/"},
		{"Google-Extended", "*", "/nogoogle", ""},
		{"", "*", "/private/", "Disallow: /private/"},
		{"GPTBot", "gptbot", "/robots.txt", ""}, // always allowed
	}
	for _, tt := range tests {
		g := f.For(tt.agent)
		if g.Agent != tt.want {
			t.Errorf("For(%q).Agent = %q, want %q", tt.agent, g.Agent, tt.want)
		}
		if got := g.Disallowed(tt.path); got != tt.rule {
			t.Errorf("For(%q).Disallowed(%q) = %q, want %q", tt.agent, tt.path, got, tt.rule)
		}
		if g.Allowed(tt.path) != (tt.rule == "") {
			t.Errorf("For(%q).Allowed(%q) disagrees with Disallowed", tt.agent, tt.path)
		}
	}
	if g := f.For("x"); !g.HasCrawlDelay || g.CrawlDelay != 2500*time.Millisecond {
		t.Errorf("* crawl delay = %v %v, want 2.5s", g.CrawlDelay, g.HasCrawlDelay)
	}
	if g := f.For("Googlebot"); g.HasCrawlDelay {
		t.Errorf("an invalid Crawl-delay was read: %v", g.CrawlDelay)
	}
	want := []string{"https://example.com/sitemap.xml", "https://example.com/news.xml"}
	if fmt.Sprint(f.Sitemaps) != fmt.Sprint(want) {
		t.Errorf("Sitemaps = %v, want %v", f.Sitemaps, want)
	}
}

func TestForEdgeCases(t *testing.T) {
	tests := []struct {
		name, body, agent, path string
		allowed                 bool
	}{
		{"empty file", "", "x", "/a", true},
		{"no star group, other agent", "User-agent: a\nDisallow: /", "b", "/", true},
		{"rules before any user-agent are ignored", "Disallow: /\nUser-agent: *\nAllow: /", "x", "/a", true},
		{"empty Disallow allows", "User-agent: *\nDisallow:", "x", "/a", true},
		{"Allow wins a tie", "User-agent: *\nDisallow: /a\nAllow: /a", "x", "/a", true},
		{"longer Disallow wins", "User-agent: *\nAllow: /a\nDisallow: /a/b", "x", "/a/b/c", false},
		{"case-sensitive paths", "User-agent: *\nDisallow: /A", "x", "/a", true},
		{"escapes compared in normal form", "User-agent: *\nDisallow: /caf\u00e9", "x", "/caf%c3%a9/menu", false},
		{"a rule line ends the agent list", "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y", "a", "/y", true},
		{"agents share a group", "User-agent: a\nUser-agent: b\nDisallow: /y", "a", "/y", false},
		{"a sitemap line keeps the group open", "User-agent: a\nSitemap: https://e.com/s.xml\nUser-agent: b\nDisallow: /y", "a", "/y", false},
		{"huge crawl-delay is bounded", "User-agent: *\nCrawl-delay: 1e300", "x", "/", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := robots.Parse([]byte(tt.body)).For(tt.agent)
			if g.Allowed(tt.path) != tt.allowed {
				t.Errorf("Allowed(%q) = %v, want %v", tt.path, !tt.allowed, tt.allowed)
			}
			if g.CrawlDelay < 0 || g.CrawlDelay > time.Hour {
				t.Errorf("CrawlDelay = %v", g.CrawlDelay)
			}
		})
	}
}

func TestMatch(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{"/", "/anything", true},
		{"/fish", "/fish.html", true},
		{"/fish", "/Fish", false},
		{"/fish/", "/fish", false},
		{"/*.php", "/dir/index.php?x", true},
		{"/*.php$", "/index.php", true},
		{"/*.php$", "/index.php?x", false},
		{"/fish*", "/fishheads", true},
		{"*/shop", "/a/shop/b", true},
		{"/a$b", "/a$b/c", true}, // "$" inside stands for itself
		{"/a$", "/a", true},
		{"/a$", "/ab", false},
		{"/*/b*/c$", "/x/bb/y/c", true},
		{"/*/b*/c$", "/x/bb/y/c/d", false},
		{"", "/", true},
	}
	for _, tt := range tests {
		if got := robots.Match(tt.pattern, tt.path); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.pattern, tt.path, got, tt.want)
		}
	}
}

func TestValidate(t *testing.T) {
	body := "Disallow: /early\n" + // 1: before any user-agent
		"# a comment\n" + // 2
		"\n" + // 3
		"User-agent:\n" + // 4: empty
		"User-agent: *\n" + // 5
		"Disallow: private\n" + // 6: pattern
		"Disallow: /a$b\n" + // 7: $ inside
		"Allow: *.css$\n" + // 8: fine
		"Nonsense here\n" + // 9: no colon
		"Unknown: x\n" + // 10
		"Sitemap: /sitemap.xml\n" + // 11: relative
		"Sitemap: mailto:a@b.c\n" + // 12: protocol
		"Sitemap: ftp://example.com/s.xml\n" + // 13: fine
		"Crawl-delay: 10\n" + // 14: fine
		"Clean-param: ref /a\n" + // 15: fine (Yandex)
		"Disallow:   # empty with comment\n" // 16: fine
	got := robots.Validate([]byte(body))
	want := []robots.LineError{
		{1, "Disallow: /early", "No user-agent specified"},
		{4, "User-agent:", "No user-agent specified"},
		{6, "Disallow: private", `Pattern should either be empty, start with "/" or "*"`},
		{7, "Disallow: /a$b", `"$" should only be used at the end of the pattern`},
		{9, "Nonsense here", "Syntax not understood"},
		{10, "Unknown: x", "Unknown directive"},
		{11, "Sitemap: /sitemap.xml", "Invalid sitemap URL"},
		{12, "Sitemap: mailto:a@b.c", "Invalid sitemap URL protocol"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Validate =\n%v\nwant\n%v", got, want)
	}
	if errs := robots.Validate([]byte("User-agent: *\r\nDisallow: /x\r\n")); len(errs) != 0 {
		t.Errorf("a valid file: %v", errs)
	}
}

func ExampleFile_For() {
	f := robots.Parse([]byte("User-agent: *\nDisallow: /admin/\nCrawl-delay: 1\n\nUser-agent: GPTBot\nDisallow: /\n"))
	fmt.Println(f.For("Pinsight/1.0").Disallowed("/admin/users"))
	fmt.Println(f.For("Pinsight/1.0").CrawlDelay)
	fmt.Println(f.For("GPTBot").Allowed("/blog/"))
	// Output:
	// Disallow: /admin/
	// 1s
	// false
}

func ExampleValidate() {
	for _, e := range robots.Validate([]byte("Disalow: /tmp\nUser-agent: *\nDisallow: tmp\n")) {
		fmt.Printf("line %d: %s\n", e.Line, e.Message)
	}
	// Output:
	// line 1: Unknown directive
	// line 3: Pattern should either be empty, start with "/" or "*"
}

// FuzzMatch: Match is the pattern split at its stars, each part found in
// turn, the last at the end of the path when the pattern ends in "$".
func FuzzMatch(f *testing.F) {
	for _, s := range [][2]string{{"/", "/anything"}, {"/*.php$", "/index.php"}, {"/*/b*/c$", "/x/bb/y/c"}, {"**$", ""}, {"*a*", "bab"}, {"$", "x"}, {"/a$b", "/a$b/c"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		if got, want := robots.Match(pattern, path), matchSplit(pattern, path); got != want {
			t.Fatalf("Match(%q, %q) = %v, want %v", pattern, path, got, want)
		}
	})
}

// matchSplit is Match written with strings.Split.
func matchSplit(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	parts := strings.Split(strings.TrimSuffix(pattern, "$"), "*")
	if !strings.HasPrefix(path, parts[0]) {
		return false
	}
	rest := path[len(parts[0]):]
	for i, part := range parts[1:] {
		if i == len(parts)-2 && anchored {
			return strings.HasSuffix(rest, part)
		}
		j := strings.Index(rest, part)
		if j < 0 {
			return false
		}
		rest = rest[j+len(part):]
	}
	return !anchored || rest == ""
}
