package robots

import (
	"net/url"
	"strings"
)

// LineError is a robots.txt line that Validate rejects.
type LineError struct {
	Line    int    // 1-based line number
	Text    string // the line as written, without its line ending
	Message string // why it is rejected, in Lighthouse's words
}

// knownDirectives are the directives Lighthouse accepts: the standard
// ones, Yandex's, and some widespread unofficial ones.
var knownDirectives = map[string]bool{
	"user-agent": true, "disallow": true, "allow": true, "sitemap": true,
	"crawl-delay": true, "clean-param": true, "host": true,
	"request-rate": true, "visit-time": true, "noindex": true,
}

// Validate returns the lines of a robots.txt that Lighthouse's robots-txt
// audit rejects, in line order, at most one error per line:
//   - a line with no colon ("Syntax not understood");
//   - a directive outside knownDirectives ("Unknown directive");
//   - a Sitemap value that is not an absolute http, https or ftp URL;
//   - an empty User-agent value;
//   - an Allow or Disallow pattern that is neither empty nor starts with
//     "/" or "*", or that has a "$" anywhere but at its end;
//   - an Allow or Disallow line before any User-agent line.
//
// Blank lines and comments are fine.
func Validate(body []byte) []LineError {
	var errs []LineError
	seenAgent := false
	for i, line := range lines(body) {
		msg := lineProblem(line, seenAgent)
		if key, _, ok := directive(line); ok && key == "user-agent" {
			seenAgent = true
		}
		if msg != "" {
			errs = append(errs, LineError{Line: i + 1, Text: line, Message: msg})
		}
	}
	return errs
}

// lineProblem says what is wrong with one line, or "".
func lineProblem(line string, seenAgent bool) string {
	bare := line
	if i := strings.IndexByte(bare, '#'); i >= 0 {
		bare = bare[:i]
	}
	if strings.TrimSpace(bare) == "" {
		return ""
	}
	key, val, ok := directive(line)
	switch {
	case !ok:
		return "Syntax not understood"
	case !knownDirectives[key]:
		return "Unknown directive"
	case key == "sitemap":
		u, err := url.Parse(val)
		if err != nil || !u.IsAbs() {
			return "Invalid sitemap URL"
		}
		if s := u.Scheme; s != "http" && s != "https" && s != "ftp" {
			return "Invalid sitemap URL protocol"
		}
	case key == "user-agent" && val == "":
		return "No user-agent specified"
	case key == "allow" || key == "disallow":
		if val != "" {
			if msg := PatternProblem(val); msg != "" {
				return msg
			}
		}
		if !seenAgent {
			return "No user-agent specified"
		}
	}
	return ""
}

// PatternProblem says why a non-empty path pattern is malformed, in
// Lighthouse's words, or "": it must start with "/" or "*", and "$" may
// only end it.
func PatternProblem(pattern string) string {
	if pattern == "" || pattern[0] != '/' && pattern[0] != '*' {
		return `Pattern should either be empty, start with "/" or "*"`
	}
	if i := strings.IndexByte(pattern, '$'); i >= 0 && i != len(pattern)-1 {
		return `"$" should only be used at the end of the pattern`
	}
	return ""
}
