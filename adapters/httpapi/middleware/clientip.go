package middleware

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ClientIP returns the address of the client: the peer, or, when the peer is
// a trusted proxy, the right-most untrusted address of X-Forwarded-For.
func ClientIP(r *http.Request, trusted []netip.Prefix) string {
	peer := parseIP(r.RemoteAddr)
	if !peer.IsValid() {
		return r.RemoteAddr
	}
	if !isTrusted(peer, trusted) {
		return peer.String()
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		ip := parseIP(strings.TrimSpace(hops[i]))
		if !ip.IsValid() {
			break
		}
		if !isTrusted(ip, trusted) {
			return ip.String()
		}
	}
	return peer.String()
}

// ForwardedTLS reports whether the client reached us over TLS: the
// connection is TLS, or the peer is a trusted proxy whose
// X-Forwarded-Proto says https. Headers of untrusted peers are ignored.
func ForwardedTLS(r *http.Request, trusted []netip.Prefix) bool {
	if r.TLS != nil {
		return true
	}
	peer := parseIP(r.RemoteAddr)
	return peer.IsValid() && isTrusted(peer, trusted) && strings.EqualFold(strings.TrimSpace(r.Header.Get("X-Forwarded-Proto")), "https")
}

func parseIP(s string) netip.Addr {
	if host, _, err := net.SplitHostPort(s); err == nil {
		s = host
	}
	ip, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Addr{}
	}
	return ip.Unmap()
}

func isTrusted(ip netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// ParsePrefixes reads a comma-separated list of CIDRs or single addresses.
func ParsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if !strings.Contains(f, "/") {
			ip, err := netip.ParseAddr(f)
			if err != nil {
				return nil, err
			}
			out = append(out, netip.PrefixFrom(ip.Unmap(), ip.Unmap().BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(f)
		if err != nil {
			return nil, err
		}
		out = append(out, p.Masked())
	}
	return out, nil
}
