package fetch

import (
	"context"
	"net"
	"net/url"

	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// The guarded API below lets another adapter (the renderer's proxy) open
// connections under the fetcher's SSRF guard: the same refused addresses,
// ports and names, the same AllowPrivate, AllowPorts and AllowTargets, the
// same pinned resolution (the address checked is the address dialled).

// CheckURL refuses, without a lookup or a request, what the guard refuses
// of rawURL alone: a scheme other than http and https, no host,
// credentials, a non-canonical numeric host, a port not allowed, a name of
// this machine or an address literal outside the public range (unless an
// allow-list entry lifts it). The refusal is a *webpage.FetchError,
// Refused, whose reason names the setting that lets it through when one
// does.
func (f *Fetcher) CheckURL(rawURL string) error {
	_, err := checkTargetURL(f.guard, rawURL)
	return err
}

// CheckHostPort is CheckURL for a connection to hostPort (host:port) asked
// without a URL, as a proxy's CONNECT asks it; the port is checked as
// given.
func (f *Fetcher) CheckHostPort(hostPort string) error {
	host, port, err := net.SplitHostPort(hostPort)
	if err != nil || host == "" || port == "" {
		return &webpage.FetchError{Reason: "refused: " + hostPort + " is not host:port", Refused: true}
	}
	return f.CheckURL((&url.URL{Scheme: "https", Host: net.JoinHostPort(host, port)}).String())
}

// Dial opens a connection to addr (host:port) through the guard: the host
// is resolved once, every refused address is skipped (never dialled),
// admit (when not nil) is asked before each connection to an accepted
// address, and the socket's address is checked once more before it
// connects. It does not check the port: CheckURL or CheckHostPort does
// that, before. A refusal or a failure is a *webpage.FetchError (the
// guard's finding is logged, the reason is safe to show); an error of
// admit is returned as it is.
func (f *Fetcher) Dial(ctx context.Context, network, addr string, admit ports.Admit) (net.Conn, error) {
	conn, err := f.dialer.dial(ctx, network, addr, admit)
	if err != nil {
		return nil, f.fetchError(ctx, err)
	}
	return conn, nil
}
