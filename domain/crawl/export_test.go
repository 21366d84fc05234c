package crawl

import (
	"net/url"
	"strings"
)

// NormalizeParsed is Normalize without its shortcut for URLs already in
// normal form: parsed and written again whatever raw is.
func NormalizeParsed(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || !u.IsAbs() {
		return "", ErrNotCrawlable
	}
	return normalize(u)
}

// IsNormal exposes the shortcut's test.
func IsNormal(raw string) bool { return isNormal(raw) }

// PlainHostPort exposes the scope's reading of a URL's host and port
// without parsing it.
func PlainHostPort(u string) (host, port string, ok bool) { return plainHostPort(u) }
