package crawl

import (
	"cmp"
	"strings"

	"github.com/pinsight/pinsight/domain/webpage"
)

// isNormal reports, without parsing or copying raw, that raw is a URL
// Normalize returns unchanged: http or https, a lower-case ASCII host name
// that is not a non-canonical number, a port only when it is not the
// scheme's default, a path without dot segments of characters that need no
// escape, and a query (when there is one) of non-empty parameters in
// normal form and sorted; no fragment. It is false for many normal URLs
// (an escape in the path, an IPv6 host...): they take the long way.
func isNormal(raw string) bool {
	rest, ok := strings.CutPrefix(raw, "http://")
	defaultPort := "80"
	if !ok {
		if rest, ok = strings.CutPrefix(raw, "https://"); !ok {
			return false
		}
		defaultPort = "443"
	}
	slash := strings.IndexByte(rest, '/')
	if slash < 0 {
		return false
	}
	host, port, hasPort := strings.Cut(rest[:slash], ":")
	if !plainHost(host) || hasPort && !normalPort(port, defaultPort) {
		return false
	}
	path, query, hasQuery := strings.Cut(rest[slash:], "?")
	return plainPath(path) && (!hasQuery || normalQuery(query))
}

// plainHost reports whether host is a non-empty lower-case name of ASCII
// letters, digits, "-" and "." without an empty label, that is not a
// non-canonical number: one Normalize keeps as it is.
func plainHost(host string) bool {
	if host == "" || emptyLabel(host) {
		return false
	}
	for i := range len(host) {
		c := host[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	return webpage.NumericHostReason(host) == ""
}

// normalPort reports whether port is decimal digits without a leading zero
// naming a port from 1 to 65535 other than def, the scheme's default.
func normalPort(port, def string) bool {
	if port == "" || len(port) > 5 || port[0] == '0' || port == def {
		return false
	}
	n := 0
	for i := range len(port) {
		c := port[i]
		if c < '0' || c > '9' {
			return false
		}
		n = n*10 + int(c-'0')
	}
	return n <= 65535
}

// plainPath reports whether path (starting with "/") has only characters
// that a URL path holds unescaped (letters, digits and -._~$&+,/:;=@: no
// escape to normalise) and no "." or ".." segment.
func plainPath(path string) bool {
	seg := 0 // where the current segment starts
	for i := 0; i <= len(path); i++ {
		if i == len(path) || path[i] == '/' {
			if s := path[seg:i]; s == "." || s == ".." {
				return false
			}
			seg = i + 1
			continue
		}
		c := path[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~$&+,:;=@", c) >= 0) {
			return false
		}
	}
	return true
}

// normalQuery reports whether query (after "?", before any "#") is one
// sortedQuery returns unchanged: non-empty parameters, each with its
// escapes in normal form, sorted by name then value.
func normalQuery(query string) bool {
	if query == "" || strings.IndexByte(query, '#') >= 0 {
		return false
	}
	prevName, prevPair := "", ""
	for i := 0; ; i++ {
		pair, rest, more := strings.Cut(query, "&")
		if pair == "" || webpage.NormalizeEscapes(pair) != pair {
			return false
		}
		name, _, _ := strings.Cut(pair, "=")
		if i > 0 && cmp.Or(strings.Compare(prevName, name), strings.Compare(prevPair, pair)) > 0 {
			return false
		}
		if !more {
			return true
		}
		prevName, prevPair, query = name, pair, rest
	}
}
