package crawl

import (
	"fmt"
	"net/textproto"
	"slices"
	"strings"

	"github.com/pinsight/pinsight/domain/report"
)

// Limits of a crawl's request headers.
const (
	MaxHeaders        = 5
	maxHeaderNameLen  = 64
	maxHeaderValueLen = 8192
)

// Header is a request header a crawl sends to the crawled site (a Cookie,
// an Authorization), Name in canonical form.
type Header struct {
	Name, Value string
}

// refusedHeaders are the header names a crawl may not set, with why.
var refusedHeaders = map[string]string{
	"Host":                "it chooses which site answers, which must be the one the URL names (and the address guard checked)",
	"Content-Length":      "it frames a request body, and a crawl's requests have none: a wrong value desynchronises the connection",
	"Transfer-Encoding":   "it frames a request body, and a crawl's requests have none: a wrong value desynchronises the connection",
	"Connection":          "it is a hop-by-hop header, managed by the HTTP client for each connection",
	"Keep-Alive":          "it is a hop-by-hop header, managed by the HTTP client for each connection",
	"Proxy-Connection":    "it is a hop-by-hop header, managed by the HTTP client for each connection",
	"Te":                  "it is a hop-by-hop header, managed by the HTTP client for each connection",
	"Trailer":             "it is a hop-by-hop header, managed by the HTTP client for each connection",
	"Upgrade":             "it is a hop-by-hop header, managed by the HTTP client for each connection",
	"Proxy-Authorization": "it is a hop-by-hop header meant for a proxy, not for the site",
	"Proxy-Authenticate":  "it is a hop-by-hop header meant for a proxy, not for the site",
	"User-Agent":          "robots.txt is read for the crawler's own user agent, which the crawl must send",
	"Accept-Encoding":     "the crawler asks for the encodings it can decode",
}

// CheckHeader says what is wrong with a request header a crawl would
// send, or "": a name of 1 to 64 token characters (RFC 9110: letters,
// digits and !#$%&'*+-.^_`|~) that is not refused (refusedHeaders: Host,
// the body's framing, hop-by-hop headers, User-Agent, Accept-Encoding),
// and a value of 1 to 8192 printable ASCII characters, spaces and tabs,
// no CR, LF or NUL (which would end the header and start another). The
// message names the header but never repeats its value, which may be a
// secret.
func CheckHeader(name, value string) string {
	if name == "" || len(name) > maxHeaderNameLen || strings.IndexFunc(name, func(r rune) bool { return !isTokenChar(r) }) >= 0 {
		return fmt.Sprintf("header names must be 1 to %d letters, digits or !#$%%&'*+-.^_`|~", maxHeaderNameLen)
	}
	canon := textproto.CanonicalMIMEHeaderKey(name)
	if why, ok := refusedHeaders[canon]; ok {
		return fmt.Sprintf("%s may not be set: %s", canon, why)
	}
	if value == "" || len(value) > maxHeaderValueLen {
		return fmt.Sprintf("%s must have a value of 1 to %d characters", canon, maxHeaderValueLen)
	}
	for i := range len(value) {
		if c := value[i]; (c < ' ' && c != '\t') || c > '~' {
			return fmt.Sprintf("%s must have a value of printable ASCII characters, spaces and tabs only (no CR, LF or NUL)", canon)
		}
	}
	return ""
}

func isTokenChar(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("!#$%&'*+-.^_`|~", r)
}

// headers validates the headers of Params, refusing two of one name.
func headers(h map[string]string, errs report.Problems) []Header {
	if len(h) > MaxHeaders {
		errs.Add("headers", fmt.Sprintf("must be at most %d", MaxHeaders))
		return nil
	}
	out := make([]Header, 0, len(h))
	for name, value := range h {
		value = strings.TrimSpace(value)
		if msg := CheckHeader(name, value); msg != "" {
			errs.Add("headers", msg)
			continue
		}
		out = append(out, Header{Name: textproto.CanonicalMIMEHeaderKey(name), Value: value})
	}
	slices.SortFunc(out, func(a, b Header) int { return strings.Compare(a.Name, b.Name) })
	for i := 1; i < len(out); i++ {
		if out[i].Name == out[i-1].Name {
			errs.Add("headers", out[i].Name+" is given twice")
		}
	}
	slices.Sort(errs["headers"])
	return out
}
