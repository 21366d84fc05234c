// Package fetch is the outbound page fetcher behind ports.PageFetcher: it
// brings a page, its robots.txt, a 404 probe and the pages pagecheck.FollowUps
// names (canonical URL, hreflang alternates) in within one deadline, with a
// body cap, a redirect limit, content decoding, charset conversion and an
// SSRF guard on every address it dials.
package fetch

import (
	"context"
	"crypto/tls"
	"log/slog"
	"net/netip"
	"time"
)

// Defaults.
const (
	DefaultTimeout        = 15 * time.Second
	DefaultConnectTimeout = 5 * time.Second
	DefaultMaxBytes       = 5 << 20 // 5 MiB of decoded page
	DefaultMaxRedirects   = 10
	DefaultUserAgent      = "PinsightBot/1.0 (+https://github.com/pinsight/pinsight)"

	robotsMaxBytes = 512 << 10 // robots.txt beyond this is ignored (Google reads 500 KiB)
	probeMaxBytes  = 64 << 10  // the 404 probe and the canonical probe only need the status

	// alternateMaxBytes caps what is read of an hreflang alternate: its
	// links back sit in the <head> or the Link header.
	alternateMaxBytes = 256 << 10
)

// Config sets the fetcher's limits and its SSRF guard. The zero value is a
// safe default: every limit defaulted, private targets refused.
type Config struct {
	// Timeout is one deadline covering the page, robots.txt, the 404
	// probe and the follow-ups (canonical, alternates) (default 15 s). Keep
	// it below the HTTP server's write timeout.
	Timeout time.Duration
	// ConnectTimeout bounds each TCP connect and TLS handshake (default 5 s).
	ConnectTimeout time.Duration
	// MaxBytes caps the decoded page body (default 5 MiB); a longer page is
	// analysed on its first MaxBytes and marked Truncated.
	MaxBytes int64
	// MaxRedirects is the most redirects followed (default 10).
	MaxRedirects int
	// UserAgent is sent with every request (default DefaultUserAgent).
	UserAgent string
	// AllowPrivate lifts the address and port guard entirely: only for
	// local testing (--allow-private-targets).
	AllowPrivate bool
	// AllowPorts are ports allowed besides 80 and 443 (on public addresses).
	AllowPorts []int
	// AllowTargets are exact host:port pairs exempt from the guard, e.g. a
	// test server "127.0.0.1:41234" (--allow-target). Redirects away from
	// them are checked like any other target.
	AllowTargets []string
	// Resolver resolves host names (default net.DefaultResolver); tests
	// inject one to point a public-looking name at a private address.
	Resolver Resolver
	// TLS is the client TLS configuration (default: system roots); tests
	// pass an httptest server's.
	TLS *tls.Config
	// Log receives what the guard found when it refuses an address (the
	// client is only told "not a public address"); default slog.Default().
	Log *slog.Logger
}

// Resolver looks a host name up; *net.Resolver implements it.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// withDefaults fills the zero fields of c.
func (c Config) withDefaults() Config {
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.ConnectTimeout <= 0 {
		c.ConnectTimeout = DefaultConnectTimeout
	}
	if c.MaxBytes <= 0 {
		c.MaxBytes = DefaultMaxBytes
	}
	if c.MaxRedirects <= 0 {
		c.MaxRedirects = DefaultMaxRedirects
	}
	if c.UserAgent == "" {
		c.UserAgent = DefaultUserAgent
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	return c
}
