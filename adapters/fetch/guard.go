package fetch

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/pinsight/pinsight/domain/webpage"
)

// RefusedError is a target the guard will not contact.
type RefusedError struct {
	Target string // what was asked for: a URL, or host:port
	Reason string // why, safe to show the client, e.g. notPublic
	// Detail is what the guard found, for the logs only: it names the
	// internal address a host resolves to, which the client must not learn.
	Detail string
	// Allow is the host:port an entry of Config.AllowTargets would let
	// through; "" when no allow-list entry lifts the refusal (a scheme, a
	// non-canonical number, an address found only when connecting).
	Allow string
	// Port is the port an entry of Config.AllowPorts would let through, set
	// when the port is all that is refused of a host not known to be
	// internal.
	Port string
}

// Hint says how an operator lets the refused target through, naming the
// serve flag and the Config field; "" when nothing can.
func (e *RefusedError) Hint() string {
	switch {
	case e.Allow == "":
		return ""
	case e.Port != "":
		return "to analyse it anyway, start the server with --allow-port " + e.Port + " or --allow-target " + e.Allow +
			" (a library sets fetch.Config.AllowPorts or AllowTargets)"
	}
	return "to analyse it anyway, start the server with --allow-target " + e.Allow + " (a library sets fetch.Config.AllowTargets)"
}

// shown is what the client is told of the refusal: its reason, and the
// hint when there is one. Every refusal a client sees (a report's, a
// crawl's, a webhook's) says it so.
func (e *RefusedError) shown() string {
	if hint := e.Hint(); hint != "" {
		return e.Reason + "; " + hint
	}
	return e.Reason
}

func (e *RefusedError) Error() string {
	if e.Detail == "" {
		return "refused " + e.Target + ": " + e.Reason
	}
	return "refused " + e.Target + ": " + e.Reason + " (" + e.Detail + ")"
}

// notPublic is the only reason a client is given for a refused address:
// which address a name resolves to, and what kind it is, stay in the logs.
const notPublic = "not a public address"

// refusedAddress is the refusal of ip, dialled for host as target; why
// (blockedReason) goes to the Detail.
func refusedAddress(target, host string, ip netip.Addr, why string) *RefusedError {
	detail := ip.Unmap().String() + " is " + why
	if host != "" && host != ip.String() {
		detail = host + " resolves to " + ip.Unmap().String() + ", " + why
	}
	return &RefusedError{Target: target, Reason: notPublic, Detail: detail}
}

// metadataAddrs are the cloud instance-metadata endpoints.
var metadataAddrs = map[netip.Addr]bool{
	netip.MustParseAddr("169.254.169.254"): true, // AWS, GCP, Azure, OpenStack, ...
	netip.MustParseAddr("169.254.170.2"):   true, // AWS ECS task metadata
	netip.MustParseAddr("100.100.100.200"): true, // Alibaba Cloud
	netip.MustParseAddr("192.0.0.192"):     true, // Oracle Cloud
	netip.MustParseAddr("fd00:ec2::254"):   true, // AWS over IPv6
}

// reservedPrefixes are special-purpose ranges the stdlib predicates miss.
var reservedPrefixes = []struct {
	prefix netip.Prefix
	reason string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "a 'this network' address"},
	{netip.MustParsePrefix("100.64.0.0/10"), "a shared (CGNAT) address"},
	{netip.MustParsePrefix("192.0.0.0/24"), "an IETF protocol address"},
	{netip.MustParsePrefix("192.0.2.0/24"), "a documentation address"},
	{netip.MustParsePrefix("198.18.0.0/15"), "a benchmarking address"},
	{netip.MustParsePrefix("198.51.100.0/24"), "a documentation address"},
	{netip.MustParsePrefix("203.0.113.0/24"), "a documentation address"},
	{netip.MustParsePrefix("240.0.0.0/4"), "a reserved address"},
	{netip.MustParsePrefix("100::/64"), "a discard address"},
	{netip.MustParsePrefix("2001:db8::/32"), "a documentation address"},
	{netip.MustParsePrefix("fec0::/10"), "a site-local address"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "a local NAT64 address"},
}

var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96") // embeds an IPv4 address
	sixToFour = netip.MustParsePrefix("2002::/16")    // embeds an IPv4 address
)

// blockedReason says why ip must not be dialled, or "" when it may.
func blockedReason(ip netip.Addr) string {
	ip = ip.Unmap() // IPv4-mapped IPv6 (::ffff:127.0.0.1) is IPv4
	switch {
	case !ip.IsValid():
		return "not a valid address"
	case metadataAddrs[ip]:
		return "a cloud metadata address"
	case ip.IsUnspecified():
		return "an unspecified address"
	case ip.IsLoopback():
		return "a loopback address"
	case ip.IsMulticast():
		return "a multicast address"
	case ip.IsLinkLocalUnicast():
		return "a link-local address"
	case ip.IsPrivate() && ip.Is4():
		return "a private address"
	case ip.IsPrivate():
		return "a unique-local address"
	}
	for _, r := range reservedPrefixes {
		if r.prefix.Contains(ip) {
			return r.reason
		}
	}
	b := ip.As16()
	switch {
	case nat64.Contains(ip):
		if r := blockedReason(netip.AddrFrom4([4]byte(b[12:16]))); r != "" {
			return r + " (via NAT64)"
		}
	case sixToFour.Contains(ip):
		if r := blockedReason(netip.AddrFrom4([4]byte(b[2:6]))); r != "" {
			return r + " (via 6to4)"
		}
	}
	return ""
}

// guard decides which targets the fetcher may contact.
type guard struct {
	allowPrivate bool
	ports        map[string]bool // allowed ports, as strings
	targets      map[string]bool // exempt host:port pairs, lower case
}

func newGuard(c Config) (*guard, error) {
	g := &guard{allowPrivate: c.AllowPrivate, ports: map[string]bool{"80": true, "443": true}, targets: map[string]bool{}}
	for _, p := range c.AllowPorts {
		if p <= 0 || p > 65535 {
			return nil, fmt.Errorf("fetch: allowed port %d out of range", p)
		}
		g.ports[strconv.Itoa(p)] = true
	}
	for _, t := range c.AllowTargets {
		host, port, err := net.SplitHostPort(strings.TrimSpace(t))
		if err != nil || host == "" || port == "" {
			return nil, fmt.Errorf("fetch: allowed target %q is not host:port", t)
		}
		g.targets[strings.ToLower(net.JoinHostPort(host, port))] = true
	}
	return g, nil
}

// hostPort is u's host and port (the scheme's default when absent), as the
// transport dials it.
func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return strings.ToLower(net.JoinHostPort(u.Hostname(), port))
}

// checkURL refuses what can be told from the URL alone: scheme, missing
// host, credentials, a host written as a non-canonical number, port.
// Addresses are checked when dialling.
func (g *guard) checkURL(u *url.URL) error {
	refuse := func(reason string) error { return &RefusedError{Target: u.Redacted(), Reason: reason} }
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return refuse("only http and https URLs can be analysed")
	case u.Hostname() == "":
		return refuse("the URL has no host")
	case u.User != nil:
		return refuse("URLs with credentials are not fetched")
	}
	if reason := webpage.NumericHostReason(dialledHost(u.Hostname())); reason != "" {
		return refuse(reason) // never resolved: a resolver and libc read such numbers differently
	}
	hp := hostPort(u)
	if g.exempt(hp) {
		return nil
	}
	if _, port, _ := net.SplitHostPort(hp); !g.ports[port] {
		portReason := "port " + port + " is not allowed (only 80 and 443)"
		if re := g.knownInternal(u.Redacted(), u.Hostname(), hp); re != nil {
			re.Reason += ", and " + portReason // the one refusal says both
			return re
		}
		return &RefusedError{Target: u.Redacted(), Reason: portReason, Allow: hp, Port: port}
	}
	return g.checkName(u.Redacted(), u.Hostname(), hp)
}

// knownInternal is the refusal of a host that is internal whatever a
// resolver says: a name of this machine (nameRefusal) or an address literal
// outside the public range; nil for any other host, which is never looked
// up here.
func (g *guard) knownInternal(target, host, addr string) *RefusedError {
	if re := g.nameRefusal(target, host, addr); re != nil {
		return re
	}
	if ip, err := netip.ParseAddr(dialledHost(host)); err == nil {
		if r := blockedReason(ip); r != "" {
			re := refusedAddress(target, host, ip, r)
			re.Allow = addr
			return re
		}
	}
	return nil
}

// checkName refuses a host that names this machine whatever a resolver
// says: "localhost", the names under it, either with the root's dot. Such
// names are never looked up; an exempt addr (host:port) is let through.
func (g *guard) checkName(target, host, addr string) error {
	if re := g.nameRefusal(target, host, addr); re != nil {
		return re
	}
	return nil
}

// nameRefusal is checkName's refusal, nil when it lets host through.
func (g *guard) nameRefusal(target, host, addr string) *RefusedError {
	h := strings.TrimSuffix(strings.ToLower(dialledHost(host)), ".")
	if g.exempt(addr) || (h != "localhost" && !strings.HasSuffix(h, ".localhost")) {
		return nil
	}
	return &RefusedError{Target: target, Reason: notPublic, Detail: host + " always names this machine (loopback)", Allow: strings.ToLower(addr)}
}

// exempt reports whether the dial of addr (host:port) skips the address
// check.
func (g *guard) exempt(addr string) bool {
	return g.allowPrivate || g.targets[strings.ToLower(addr)]
}

// exemptKey marks a dial context whose address check is lifted.
type exemptKey struct{}

// control is the net.Dialer hook run on the socket about to connect: the
// last word on the address actually dialled, whatever resolved it.
func (g *guard) control(ctx context.Context, _, address string, _ syscall.RawConn) error {
	if ex, _ := ctx.Value(exemptKey{}).(bool); ex {
		return nil
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &RefusedError{Target: address, Reason: "not an IP address"}
	}
	if r := blockedReason(ap.Addr()); r != "" {
		return refusedAddress(address, "", ap.Addr(), r)
	}
	return nil
}

// dialledHost is host as net/http dials it: a non-ASCII name goes through
// IDNA's lookup mapping first, which turns fullwidth digits and dots into
// ASCII ones (so "１２７.１" is checked as the "127.1" it becomes).
func dialledHost(host string) string {
	for i := 0; i < len(host); i++ {
		if host[i] >= utf8.RuneSelf {
			if ascii, err := idna.Lookup.ToASCII(host); err == nil {
				return ascii
			}
			return host
		}
	}
	return host
}
