package robots

import "strings"

// Match reports whether a robots.txt path pattern matches path (a URL's
// path and query): the pattern matches a prefix of path, "*" stands for any
// run of characters ("/" included) and a "$" ending the pattern requires
// the match to reach the end of path. Any other character, "$" elsewhere
// included, stands for itself. Both are compared as written: give them
// with escapes in normal form (webpage.NormalizeEscapes).
func Match(pattern, path string) bool {
	anchored := strings.HasSuffix(pattern, "$")
	pattern = strings.TrimSuffix(pattern, "$")
	first, parts, more := strings.Cut(pattern, "*") // the parts between the stars, one by one
	if !strings.HasPrefix(path, first) {
		return false
	}
	rest := path[len(first):]
	for more {
		var part string
		part, parts, more = strings.Cut(parts, "*")
		if !more && anchored { // the last part
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
