package crawl

import (
	"net/url"
	"strings"

	"github.com/pinsight/pinsight/domain/robots"
)

// Scope decides which URLs a crawl follows. Build it with Settings.Scope.
type Scope struct {
	start      string
	host, port string // of the start URL
	site       string // the host name that, with its subdomains, is the site when subdomains are crawled
	subdomains bool
	include    []string
	exclude    []string
}

// Scope is the scope of the crawl. Without subdomains the site is the
// start URL's host and port. With subdomains it is registrable (the
// start host's registrable domain, such as example.com for
// www.shop.example.com, which the caller computes with the public suffix
// list: the domain packages use the standard library only) and every
// host below it, on the start URL's port; when registrable is "" or is
// not the start host or a parent domain of it, the site is the start host
// without a leading "www." and its subdomains.
func (s Settings) Scope(registrable string) Scope {
	u, _ := url.Parse(s.URL) // normalised: parses
	sc := Scope{start: s.URL, host: u.Hostname(), port: u.Port(), subdomains: s.Subdomains, include: s.Include, exclude: s.Exclude}
	registrable = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(registrable)), ".")
	switch {
	case registrable != "" && (sc.host == registrable || strings.HasSuffix(sc.host, "."+registrable)):
		sc.site = registrable
	default:
		sc.site = strings.TrimPrefix(sc.host, "www.")
	}
	return sc
}

// SameHost reports whether u (normalised) is on the start URL's host and
// port, either scheme: the only URLs a crawl's request headers are sent
// to.
func (sc Scope) SameHost(u string) bool {
	if h, port, ok := plainHostPort(u); ok {
		return h == sc.host && port == sc.port
	}
	p, err := url.Parse(u)
	return err == nil && p.Hostname() == sc.host && p.Port() == sc.port
}

// OnSite reports whether u (normalised) is on the crawled site: on the
// start host, or with subdomains on the site or a host below it, on the
// start URL's port; http and https alike. Links to other URLs are
// external: never crawled.
func (sc Scope) OnSite(u string) bool {
	if h, port, ok := plainHostPort(u); ok {
		return sc.onSite(h, port)
	}
	p, err := url.Parse(u)
	return err == nil && sc.onSite(p.Hostname(), p.Port())
}

// onSite is OnSite of a URL's host name h and port.
func (sc Scope) onSite(h, port string) bool {
	if port != sc.port {
		return false
	}
	if !sc.subdomains {
		return h == sc.host
	}
	return h == sc.site || strings.HasSuffix(h, "."+sc.site)
}

// Follows reports whether the crawl fetches u (normalised): the start URL
// always (its links lead to the rest), any other URL when it is on the
// site and passes the filters (Filter).
func (sc Scope) Follows(u string) bool {
	if u == sc.start {
		return true
	}
	if len(sc.include) == 0 && len(sc.exclude) == 0 {
		if h, port, ok := plainHostPort(u); ok {
			return sc.onSite(h, port) // no filter: the path does not matter
		}
	}
	p, err := url.Parse(u)
	if err != nil || !sc.onSite(p.Hostname(), p.Port()) {
		return false
	}
	return Filter(sc.include, sc.exclude, p.RequestURI())
}

// Filter reports whether a URL's path and query (as escaped in a
// normalised URL, such as "/blog/post?id=3") passes include and exclude
// patterns: it must match one of include, when there are any, and none of
// exclude. The patterns are those of robots.txt (robots.Match): a pattern
// matches the start of the path, so a plain path is a prefix ("/blog"
// matches /blog, /blog/post and /blogroll; "/blog/" only what is below
// /blog/); "*" matches any run of characters, "/" included
// ("/*/print" matches /a/print and /a/b/print/x); "$" at the end
// anchors the match at the end of the path and query ("/*.pdf$" matches
// /files/a.pdf, not /files/a.pdf?download=1). Matching is case-sensitive.
func Filter(include, exclude []string, pathQuery string) bool {
	for _, p := range exclude {
		if robots.Match(p, pathQuery) {
			return false
		}
	}
	if len(include) == 0 {
		return true
	}
	for _, p := range include {
		if robots.Match(p, pathQuery) {
			return true
		}
	}
	return false
}

// plainHostPort is the host name and port of u as url.Parse reads them
// (Hostname, Port), read without parsing u; ok is false, and u must be
// parsed, unless u is http or https with a lower-case ASCII host name, an
// optional port of decimal digits, and after them only printable ASCII
// without "%" (nothing url.Parse could refuse).
func plainHostPort(u string) (host, port string, ok bool) {
	rest, ok := strings.CutPrefix(u, "http://")
	if !ok {
		if rest, ok = strings.CutPrefix(u, "https://"); !ok {
			return "", "", false
		}
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	host, port, hasPort := strings.Cut(rest[:end], ":")
	if host == "" || hasPort && (port == "" || len(port) > 5) {
		return "", "", false
	}
	for i := range len(host) {
		if c := host[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.') {
			return "", "", false
		}
	}
	for i := range len(port) {
		if c := port[i]; c < '0' || c > '9' {
			return "", "", false
		}
	}
	for i := end; i < len(rest); i++ {
		if c := rest[i]; c <= ' ' || c >= 0x7f || c == '%' {
			return "", "", false
		}
	}
	return host, port, true
}
