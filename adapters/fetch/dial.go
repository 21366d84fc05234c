package fetch

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strconv"
)

// dialer resolves a host itself, refuses blocked addresses before any
// packet is sent, and dials the checked address (no second lookup, so DNS
// rebinding cannot swap it); the net.Dialer's ControlContext checks the
// socket's address once more.
type dialer struct {
	guard    *guard
	resolver Resolver
	net      *net.Dialer
}

func newDialer(g *guard, r Resolver, c Config) *dialer {
	if r == nil {
		r = net.DefaultResolver
	}
	return &dialer{guard: g, resolver: r, net: &net.Dialer{Timeout: c.ConnectTimeout, ControlContext: g.control}}
}

// DialContext dials addr (host:port) for the transport.
func (d *dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	port, err := strconv.ParseUint(portStr, 10, 16)
	if err != nil {
		return nil, &RefusedError{Target: addr, Reason: "invalid port"}
	}
	exempt := d.guard.exempt(addr)
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else if ips, err = d.resolver.LookupNetIP(ctx, "ip", host); err != nil {
		return nil, err
	}
	if len(ips) == 0 {
		return nil, &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
	}
	ctx = context.WithValue(ctx, exemptKey{}, exempt)
	var errs []error
	for _, ip := range ips {
		if !exempt {
			if r := blockedReason(ip); r != "" {
				errs = append(errs, refusedAddress(addr, host, ip, r))
				continue
			}
		}
		conn, err := d.net.DialContext(ctx, network, netip.AddrPortFrom(ip.Unmap(), uint16(port)).String())
		if err == nil {
			return conn, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, errors.Join(errs...)
}
