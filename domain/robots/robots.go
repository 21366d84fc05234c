package robots

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/pinsight/pinsight/domain/webpage"
)

// File is a parsed robots.txt: its groups of rules and the sitemaps it
// lists.
type File struct {
	groups   []group
	Sitemaps []string // the Sitemap URLs, in order
}

// group is one group as written: its user agents' product tokens (lower
// case, "*" for every crawler) and its rules.
type group struct {
	agents     []string
	rules      []rule
	crawlDelay time.Duration
	hasDelay   bool
}

type rule struct {
	allow   bool
	pattern string // with escapes in normal form (webpage.NormalizeEscapes)
}

// Parse reads robots.txt per RFC 9309. A group starts with one or more
// User-agent lines and holds the Allow, Disallow and Crawl-delay lines that
// follow, up to the next User-agent line after a rule; rules before any
// User-agent line belong to no group and are ignored. Sitemap lines are
// global. Other lines are ignored; "#" starts a comment. Lines end at LF,
// CR LF or CR.
func Parse(body []byte) File {
	var f File
	var cur *group
	inAgents := false
	for _, line := range lines(body) {
		key, val, ok := directive(line)
		if !ok {
			continue
		}
		switch key {
		case "user-agent":
			if !inAgents {
				f.groups = append(f.groups, group{})
				cur = &f.groups[len(f.groups)-1]
			}
			inAgents = true
			if tok := productToken(val); tok != "" {
				cur.agents = append(cur.agents, tok)
			}
		case "allow", "disallow":
			inAgents = false
			if cur != nil && val != "" {
				cur.rules = append(cur.rules, rule{allow: key == "allow", pattern: webpage.NormalizeEscapes(val)})
			}
		case "crawl-delay":
			inAgents = false
			if cur != nil && !cur.hasDelay {
				cur.crawlDelay, cur.hasDelay = parseDelay(val)
			}
		case "sitemap":
			if val != "" {
				f.Sitemaps = append(f.Sitemaps, val)
			}
		}
	}
	return f
}

// lines splits body at LF, CR LF and CR, after a leading UTF-8 byte order
// mark.
func lines(body []byte) []string {
	s := strings.TrimPrefix(string(body), "\ufeff")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Split(strings.ReplaceAll(s, "\r", "\n"), "\n")
}

// directive splits a line into its lower-case key and trimmed value, after
// dropping a comment; ok is false for a line without a colon.
func directive(line string) (key, val string, ok bool) {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	key, val, ok = strings.Cut(line, ":")
	return strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(val), ok
}

// productToken is the crawler name a User-agent value or a crawler's user
// agent string starts with, in lower case: its leading letters, "_" and
// "-" (RFC 9309's product token), so "Googlebot/2.1" gives "googlebot";
// "*" stays "*".
func productToken(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "*") {
		return "*"
	}
	end := 0
	for end < len(s) {
		c := s[end]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-') {
			break
		}
		end++
	}
	return strings.ToLower(s[:end])
}

// maxCrawlDelay bounds the delay a robots.txt can ask for: a larger value
// is read as this.
const maxCrawlDelay = time.Hour

// parseDelay reads a Crawl-delay value in seconds (a non-negative decimal
// number); ok is false when it is not one.
func parseDelay(val string) (time.Duration, bool) {
	secs, err := strconv.ParseFloat(val, 64)
	if err != nil || secs < 0 || math.IsNaN(secs) {
		return 0, false
	}
	if secs >= maxCrawlDelay.Seconds() {
		return maxCrawlDelay, true
	}
	return time.Duration(secs * float64(time.Second)), true
}

// Group is the rules of a File that apply to one crawler.
type Group struct {
	// Agent is the product token whose groups were chosen, "*" for the
	// groups for every crawler, or "" when no group applies (everything
	// is allowed).
	Agent string
	rules []rule
	// CrawlDelay is the pause the chosen groups ask for between requests;
	// HasCrawlDelay is false when they set none.
	CrawlDelay    time.Duration
	HasCrawlDelay bool
}

// For returns the rules for the crawler whose user agent is userAgent
// (such as "Pinsight/1.0 (+https://...)" or "GPTBot"), as RFC 9309 selects
// them: the groups naming the crawler's product token (case-insensitively)
// are the most specific and are merged; when none does, the groups for
// "*" are merged; when there are none either, nothing is disallowed.
// A group's name matches on the whole token: a "Googlebot" group does not
// apply to "Googlebot-News" or to "Google-Extended".
func (f File) For(userAgent string) Group {
	tok := productToken(userAgent)
	if g, ok := f.merged(tok); ok && tok != "" {
		return g
	}
	g, _ := f.merged("*")
	return g
}

// merged merges the groups naming token; ok is false when none does.
func (f File) merged(token string) (Group, bool) {
	g, ok := Group{}, false
	for _, gr := range f.groups {
		for _, a := range gr.agents {
			if a != token {
				continue
			}
			ok, g.Agent = true, token
			g.rules = append(g.rules, gr.rules...)
			if gr.hasDelay && !g.HasCrawlDelay {
				g.CrawlDelay, g.HasCrawlDelay = gr.crawlDelay, true
			}
			break
		}
	}
	return g, ok
}

// Disallowed returns the rule that keeps the crawler from path (a URL's
// path and query, as escaped), as "Disallow: <pattern>", or "" when path
// is allowed: the longest matching pattern wins and Allow wins a tie.
// /robots.txt itself is always allowed.
func (g Group) Disallowed(path string) string {
	path = webpage.NormalizeEscapes(path)
	if path == "/robots.txt" {
		return ""
	}
	best, bestLen, bestAllow := "", -1, true
	for _, r := range g.rules {
		if !Match(r.pattern, path) {
			continue
		}
		n := len(r.pattern)
		if n > bestLen || (n == bestLen && r.allow) {
			best, bestLen, bestAllow = r.pattern, n, r.allow
		}
	}
	if bestAllow {
		return ""
	}
	return "Disallow: " + best
}

// Allowed reports whether the crawler may fetch path.
func (g Group) Allowed(path string) bool { return g.Disallowed(path) == "" }
