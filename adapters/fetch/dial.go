package fetch

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/pinsight/pinsight/ports"
)

// dialer resolves a host itself, refuses blocked addresses before any
// packet is sent, asks the fetch's admission for the others, and dials the
// checked address (no second lookup, so DNS rebinding cannot swap it); the
// net.Dialer's ControlContext checks the socket's address once more.
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

// admissionError carries the error of a fetch's ports.Admit through the
// transport, so Fetch can return it as it is.
type admissionError struct{ err error }

func (e *admissionError) Error() string { return e.err.Error() }
func (e *admissionError) Unwrap() error { return e.err }

// dial dials addr (host:port) for the transport of one fetch. admit (may be
// nil) is asked before each connection to an address the guard accepted,
// never for a refused one.
func (d *dialer) dial(ctx context.Context, network, addr string, admit ports.Admit) (net.Conn, error) {
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	port, err := strconv.ParseUint(portStr, 10, 16)
	if err != nil {
		return nil, &RefusedError{Target: addr, Reason: "invalid port"}
	}
	ips, errs, err := d.lookup(ctx, host, addr)
	if err != nil {
		return nil, err
	}
	ctx = context.WithValue(ctx, exemptKey{}, d.guard.exempt(addr))
	for _, ip := range ips {
		if admit != nil {
			if err := admit(ctx, ports.Target{Host: host, Addr: ip.Unmap()}); err != nil {
				return nil, &admissionError{err: err}
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

// lookup resolves host, dialled as addr (host:port), and returns the
// addresses the guard lets it dial and the refusals of the others. A name
// that always means this machine is refused without a lookup; an address
// literal is its own answer; a lookup's failure is returned as it is (a
// *net.DNSError, IsNotFound when the name does not exist). Each connection
// and each webhook's creation decide by it.
func (d *dialer) lookup(ctx context.Context, host, addr string) ([]netip.Addr, []error, error) {
	if err := d.guard.checkName(addr, host, addr); err != nil {
		return nil, []error{err}, nil
	}
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else if ips, err = d.resolver.LookupNetIP(ctx, "ip", host); err != nil {
		return nil, nil, err
	}
	if len(ips) == 0 {
		return nil, nil, &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
	}
	if d.guard.exempt(addr) {
		return ips, nil, nil
	}
	var ok []netip.Addr
	var refused []error
	for _, ip := range ips {
		if r := blockedReason(ip); r != "" {
			re := refusedAddress(addr, host, ip, r)
			re.Allow = strings.ToLower(addr)
			refused = append(refused, re)
			continue
		}
		ok = append(ok, ip)
	}
	return ok, refused, nil
}
