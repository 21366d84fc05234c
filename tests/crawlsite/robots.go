package crawlsite

import (
	"strings"

	"github.com/pinsight/pinsight/domain/crawl"
)

// robotsLine is a line of robots.txt; {origin} stands for the site's
// scheme and host.
type robotsLine struct {
	text    string
	invalid bool // a line robots.Validate rejects: a robots_txt_invalid issue
}

// robotsLines are the site's robots.txt: rules for "*" (the crawler's
// group), groups for AI crawlers, the sitemaps, and seven invalid lines,
// one of each kind robots.Validate rejects.
var robotsLines = []robotsLine{
	{"Disallow: /early", true}, // a rule before any User-agent line
	{"# Crawl fixture: the crawler's rules are those for every crawler.", false},
	{"User-agent: *", false},
	{"Disallow: /private/", false},
	{"Allow: /private/open", false},
	{"Disallow: /*?print=", false},
	{"Disallow: /*/print$", false},
	{"Disalow: /typo", true},            // unknown directive
	{"Disallow: private-area", true},    // pattern not starting with / or *
	{"Disallow: /cart$/checkout", true}, // "$" inside a pattern
	{"this line has no colon", true},
	{"", false},
	{"User-agent: GPTBot", false},
	{"User-agent: CCBot", false},
	{"User-agent: Bytespider", false},
	{"Disallow: /", false},
	{"", false},
	{"# Only the start page.", false},
	{"User-agent: PerplexityBot", false},
	{"Disallow: /$", false},
	{"", false},
	{"# Allow wins a tie.", false},
	{"User-agent: Google-Extended", false},
	{"Allow: /", false},
	{"Disallow: /", false},
	{"", false},
	{"User-agent: ClaudeBot", false},
	{"Disallow: /private/", false},
	{"", false},
	{"User-agent:", true}, // empty user agent
	{"Disallow: /nothing", false},
	{"", false},
	{"Sitemap: {origin}/sitemap.xml", false},
	{"Sitemap: {origin}/sitemap_index.xml", false},
	{"Sitemap: mailto:webmaster@example.com", true}, // not an http, https or ftp URL
}

// aiBlocked are the AI crawlers robotsLines keep from the start URL.
var aiBlocked = []string{"GPTBot", "CCBot", "Bytespider", "PerplexityBot"}

// plantRobots plants the invalid lines of robots.txt.
func (s *Site) plantRobots() {
	for i, l := range robotsLines {
		if l.invalid {
			s.planted = append(s.planted, Planted{Type: crawl.RobotsTxtInvalid, Path: "/robots.txt", Line: i + 1})
		}
	}
}

// robotsTxt writes robots.txt for origin ("http://host:port").
func robotsTxt(origin string) string {
	var b strings.Builder
	for _, l := range robotsLines {
		b.WriteString(strings.ReplaceAll(l.text, "{origin}", origin))
		b.WriteByte('\n')
	}
	return b.String()
}

// llmsTxt writes a well-formed /llms.txt (llmstxt.org) for origin.
func llmsTxt(origin string) string {
	return "# Crawl fixture\n\n> A generated site for testing whole-site audits.\n\n" +
		"The pages are made up; the sections list them.\n\n" +
		"## Pages\n\n- [Home](" + origin + "/): the start page\n- [First section](" + origin + "/s/0)\n\n" +
		"## Optional\n\n- [Sitemap](" + origin + "/sitemap.xml): every page\n"
}
