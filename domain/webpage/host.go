package webpage

import (
	"net/netip"
	"strings"
)

// NumericHostReason says why host (a URL's host name, without brackets)
// must not be fetched, or "" when it may: a number that is not a canonical
// address. Hosts such as 127.1, 2130706433, 0x7f000001, 0177.0.0.1 or
// 127.000.000.001 are IPv4 addresses to browsers and to libc (each reading
// them its own way) but names to a DNS resolver, so they are refused
// outright rather than resolved. A host ends in a number, as the WHATWG URL
// standard puts it, when its last label is decimal digits or 0x-hex; such a
// host must be a dotted-quad IPv4 address without leading zeros. A host
// with a colon must be a valid IPv6 address. Names pass.
func NumericHostReason(host string) string {
	if strings.Contains(host, ":") {
		if _, err := netip.ParseAddr(host); err != nil {
			return "the host is not a valid IPv6 address"
		}
		return ""
	}
	if !endsInNumber(host) {
		return ""
	}
	var buf [len("255.255.255.255")]byte
	if a, err := netip.ParseAddr(host); err == nil && a.Is4() && string(a.AppendTo(buf[:0])) == host {
		return ""
	}
	return "the host is a number but not a canonical IP address: write IPv4 as four decimal parts without leading zeros (e.g. 192.0.2.1)"
}

// endsInNumber reports whether host's last label (a trailing dot aside) is
// decimal digits or 0x followed by hex digits.
func endsInNumber(host string) bool {
	host = strings.TrimSuffix(host, ".")
	last := host[strings.LastIndexByte(host, '.')+1:]
	if last == "" {
		return false
	}
	if hex, ok := strings.CutPrefix(strings.ToLower(last), "0x"); ok {
		return strings.Trim(hex, "0123456789abcdef") == ""
	}
	return strings.Trim(last, "0123456789") == ""
}
