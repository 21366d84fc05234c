// Package audit analyses one web page in one call, as a library: URL
// fetches the page with the SSRF-guarded fetcher of package fetch (the
// page, its robots.txt, a 404 probe, its canonical URL and hreflang
// alternates) and runs every check of domain/pagecheck over it.
//
// It has no users, quotas, rate limits, storage, password hashing or global
// logger: it never throttles, so the caller is responsible for how often it
// audits a third-party site. The HTTP server's analyser (app/reports) adds
// those around the same fetcher and checks.
package audit

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"time"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/domain/fault"
	"github.com/pinsight/pinsight/domain/pagecheck"
)

// Options configure URL. The zero value audits public http and https
// targets on ports 80 and 443 with the fetcher's defaults, scores with
// pagecheck.DefaultWeights and logs nothing.
type Options struct {
	// AllowTargets are exact host:port pairs the SSRF guard lets through
	// although they are loopback, private or on another port, e.g. a test
	// server "127.0.0.1:41234". Redirects away from them are guarded like
	// any other target.
	AllowTargets []string
	// AllowPorts are ports allowed on public addresses besides 80 and 443.
	AllowPorts []int
	// Timeout is the total deadline of the audit: the page, robots.txt,
	// the 404 probe and the follow-ups (default fetch.DefaultTimeout).
	// ctx's own deadline applies as well.
	Timeout time.Duration
	// ConnectTimeout bounds each TCP connect and each TLS handshake
	// (default fetch.DefaultConnectTimeout).
	ConnectTimeout time.Duration
	// MaxBytes caps the decoded page read (default fetch.DefaultMaxBytes);
	// a longer page is analysed on its first MaxBytes and fails the page
	// size check.
	MaxBytes int64
	// MaxRedirects is the most redirects followed (default
	// fetch.DefaultMaxRedirects).
	MaxRedirects int
	// UserAgent is sent with every request (default fetch.DefaultUserAgent).
	UserAgent string
	// TLS is the client TLS configuration (default: the system's roots).
	TLS *tls.Config
	// Weights weigh each importance in the score (default
	// pagecheck.DefaultWeights).
	Weights pagecheck.Weights
	// Logger receives what the guard found about a refused target (the
	// address a host resolves to), which the error leaves out; nil
	// discards it.
	Logger *slog.Logger
}

// OptionError is an Options field URL cannot use; nothing was fetched. It
// is a fault.Invalid.
type OptionError struct {
	Option string // the field, e.g. "Timeout"
	Err    error  // what is wrong with it
}

func (e *OptionError) Error() string { return "audit: invalid " + e.Option + ": " + e.Err.Error() }

// Unwrap returns what is wrong with the option.
func (e *OptionError) Unwrap() error { return e.Err }

// Kind implements fault.Kinder.
func (e *OptionError) Kind() fault.Kind { return fault.Invalid }

// URL fetches rawURL, an absolute http or https URL, and analyses it.
// Errors: *OptionError for options it cannot use (a negative duration,
// size or weight, a malformed AllowTargets entry, a port out of range);
// *webpage.FetchError when the page does not answer (unreachable, timed out,
// cancelled) or its target is refused (the SSRF guard, the scheme, the
// port). A page that answers with any status is analysed.
func URL(ctx context.Context, rawURL string, opts Options) (pagecheck.Analysis, error) {
	cfg, err := opts.config()
	if err != nil {
		return pagecheck.Analysis{}, err
	}
	f, err := fetch.New(cfg)
	if err != nil {
		return pagecheck.Analysis{}, &OptionError{Option: "AllowTargets", Err: err}
	}
	fetched, err := f.Fetch(ctx, rawURL, nil)
	if err != nil {
		return pagecheck.Analysis{}, err
	}
	w := opts.Weights
	if w == nil {
		w = pagecheck.DefaultWeights
	}
	return pagecheck.Analyse(fetched, w), nil
}

// config checks o and returns the fetcher's configuration; fetch.New
// checks AllowTargets.
func (o Options) config() (fetch.Config, error) {
	switch {
	case o.Timeout < 0:
		return fetch.Config{}, &OptionError{Option: "Timeout", Err: fmt.Errorf("%s is negative", o.Timeout)}
	case o.ConnectTimeout < 0:
		return fetch.Config{}, &OptionError{Option: "ConnectTimeout", Err: fmt.Errorf("%s is negative", o.ConnectTimeout)}
	case o.MaxBytes < 0:
		return fetch.Config{}, &OptionError{Option: "MaxBytes", Err: fmt.Errorf("%d is negative", o.MaxBytes)}
	case o.MaxRedirects < 0:
		return fetch.Config{}, &OptionError{Option: "MaxRedirects", Err: fmt.Errorf("%d is negative", o.MaxRedirects)}
	}
	for _, p := range o.AllowPorts {
		if p <= 0 || p > 65535 {
			return fetch.Config{}, &OptionError{Option: "AllowPorts", Err: fmt.Errorf("port %d out of range", p)}
		}
	}
	for imp, v := range o.Weights {
		if v < 0 {
			return fetch.Config{}, &OptionError{Option: "Weights", Err: fmt.Errorf("weight %d of %s is negative", v, imp)}
		}
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return fetch.Config{
		Timeout: o.Timeout, ConnectTimeout: o.ConnectTimeout, MaxBytes: o.MaxBytes, MaxRedirects: o.MaxRedirects,
		UserAgent: o.UserAgent, AllowPorts: o.AllowPorts, AllowTargets: o.AllowTargets, TLS: o.TLS, Log: log,
	}, nil
}
