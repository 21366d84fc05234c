package robots

import "strings"

// File is the part of a robots.txt the checks read: the rules of the
// group for every crawler ("User-agent: *") and the sitemaps it lists.
type File struct {
	rules    []rule
	Sitemaps []string // the Sitemap URLs, in order
}

type rule struct {
	allow   bool
	pattern string
}

// Parse reads robots.txt per RFC 9309: groups start with one or more
// User-agent lines; only the "*" groups are kept; Sitemap lines are global.
func Parse(body []byte) File {
	var r File
	inStar, inAgents := false, false
	for line := range strings.Lines(string(body)) {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key, val = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(val)
		switch key {
		case "user-agent":
			if !inAgents {
				inStar = false
			}
			inAgents = true
			inStar = inStar || val == "*"
		case "allow", "disallow":
			inAgents = false
			if inStar && val != "" {
				r.rules = append(r.rules, rule{allow: key == "allow", pattern: val})
			}
		case "sitemap":
			if val != "" {
				r.Sitemaps = append(r.Sitemaps, val)
			}
		default:
			inAgents = false
		}
	}
	return r
}

// Disallowed returns the rule that blocks path for every crawler, or "":
// the longest matching pattern wins and Allow wins a tie.
func (r File) Disallowed(path string) string {
	best, bestLen, bestAllow := "", -1, true
	for _, rule := range r.rules {
		if !match(rule.pattern, path) {
			continue
		}
		n := len(rule.pattern)
		if n > bestLen || (n == bestLen && rule.allow) {
			best, bestLen, bestAllow = rule.pattern, n, rule.allow
		}
	}
	if bestAllow {
		return ""
	}
	return "Disallow: " + best
}

// match matches a robots.txt path pattern ("*" any run, "$" end) to
// path.
func match(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	pattern = strings.TrimSuffix(pattern, "$")
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(path, parts[0]) {
		return false
	}
	rest := path[len(parts[0]):]
	for i, part := range parts[1:] {
		last := i == len(parts)-2
		if last && anchored {
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
