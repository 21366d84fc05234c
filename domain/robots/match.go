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
