package crawl

import (
	"cmp"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/pinsight/pinsight/domain/fault"
	"github.com/pinsight/pinsight/domain/webpage"
)

// ErrNotCrawlable is returned for a link a crawl never follows: not http
// or https, carrying credentials, without a host, with a host that cannot
// be written in ASCII or is a non-canonical number, or unparsable.
var ErrNotCrawlable = fault.New(fault.Invalid, "crawl: the url cannot be crawled")

// Normalize writes an absolute URL in the one form a crawl stores and
// compares, so that no page is crawled twice under two spellings:
//   - the scheme and host in lower case, the host in ASCII (asciiHost:
//     Punycode for international names) without a trailing dot;
//   - the port dropped when it is the scheme's default (80, 443);
//   - an empty path written "/", dot segments ("/a/./b/../c") resolved;
//   - escapes in normal form (webpage.NormalizeEscapes: upper-case hex,
//     unreserved characters decoded, unsafe bytes escaped);
//   - the query's parameters kept, empty ones dropped, and sorted by name
//     then value (a stable sort of the "name=value" pairs as escaped), an
//     empty query dropped;
//   - the fragment dropped.
//
// Everything else is kept as is: "/index.html" and "/" stay two URLs, and
// so do "/a" and "/a/", and http and https.
func Normalize(raw string) (string, error) {
	if isNormal(raw) {
		return raw, nil
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || !u.IsAbs() {
		return "", ErrNotCrawlable
	}
	return normalize(u)
}

// Resolve resolves href, a link found on the page at base (a normalised
// URL), and normalises the result.
func Resolve(base, href string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", ErrNotCrawlable
	}
	h, err := url.Parse(strings.TrimSpace(href))
	if err != nil {
		return "", ErrNotCrawlable
	}
	return normalize(b.ResolveReference(h))
}

func normalize(u *url.URL) (string, error) {
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" || u.Opaque != "" || u.User != nil {
		return "", ErrNotCrawlable
	}
	host, err := asciiHost(strings.TrimSuffix(strings.ToLower(u.Hostname()), "."))
	if err != nil || host == "" || !validHost(host) || emptyLabel(host) || webpage.NumericHostReason(host) != "" {
		return "", ErrNotCrawlable
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if p := u.Port(); p != "" {
		port, err := strconv.Atoi(p)
		if err != nil || port < 1 || port > 65535 {
			return "", ErrNotCrawlable
		}
		if !(scheme == "http" && port == 80 || scheme == "https" && port == 443) {
			host += ":" + strconv.Itoa(port)
		}
	}
	path := removeDotSegments(webpage.NormalizeEscapes(u.EscapedPath()))
	if path == "" {
		path = "/"
	}
	s := scheme + "://" + host + path
	if q := sortedQuery(u.RawQuery); q != "" {
		s += "?" + q
	}
	return s, nil
}

// validHost reports whether an ASCII host has only the characters of
// domain names (letters, digits, "-", "_", ".") or of an IPv6 literal.
func validHost(h string) bool {
	for i := range len(h) {
		c := h[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':') {
			return false
		}
	}
	return true
}

// emptyLabel reports whether a domain name (one trailing dot already
// removed) has an empty label, as "a..b", ".a" or "a." do: no DNS name has
// one, and keeping "a." would make normalising twice differ from once.
func emptyLabel(h string) bool {
	return !strings.Contains(h, ":") && (h[0] == '.' || h[len(h)-1] == '.' || strings.Contains(h, ".."))
}

// sortedQuery normalises a raw query's parameters and sorts them by name
// then value.
func sortedQuery(raw string) string {
	type param struct{ name, pair string }
	var params []param
	for p := range strings.SplitSeq(raw, "&") {
		if p == "" {
			continue
		}
		p = webpage.NormalizeEscapes(p)
		name, _, _ := strings.Cut(p, "=")
		params = append(params, param{name, p})
	}
	slices.SortStableFunc(params, func(a, b param) int {
		return cmp.Or(strings.Compare(a.name, b.name), strings.Compare(a.pair, b.pair))
	})
	out := make([]string, len(params))
	for i, p := range params {
		out[i] = p.pair
	}
	return strings.Join(out, "&")
}

// removeDotSegments resolves "." and ".." segments of an absolute path
// (RFC 3986, section 5.2.4).
func removeDotSegments(path string) string {
	if !strings.Contains(path, ".") {
		return path
	}
	segs := strings.Split(path, "/")
	out := make([]string, 0, len(segs))
	for i, s := range segs {
		last := i == len(segs)-1
		switch s {
		case ".":
			if last {
				out = append(out, "")
			}
		case "..":
			if len(out) > 1 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	return strings.Join(out, "/")
}
