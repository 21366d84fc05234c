package fetch

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// Fetcher implements ports.PageFetcher over net/http.
type Fetcher struct {
	cfg    Config
	guard  *guard
	dialer *dialer
	log    *slog.Logger
}

// New returns a fetcher for cfg (zero fields defaulted). It fails on a
// malformed allow-list entry.
func New(cfg Config) (*Fetcher, error) {
	cfg = cfg.withDefaults()
	g, err := newGuard(cfg)
	if err != nil {
		return nil, err
	}
	return &Fetcher{cfg: cfg, guard: g, dialer: newDialer(g, cfg.Resolver, cfg), log: cfg.Log}, nil
}

// transport is the transport of one fetch: connections are not shared
// between fetches (an idle connection kept for the next analysis of a host
// would skip admit), only between the page, robots.txt and the probe.
func (f *Fetcher) transport(admit ports.Admit) *http.Transport {
	t := guardedTransport(f.cfg, f.dialer, admit)
	t.DisableCompression = true // decoded here, to see the coding and the wire size
	t.ForceAttemptHTTP2 = true
	t.MaxIdleConnsPerHost = 4
	return t
}

// guardedTransport is a transport that dials only through d (the guard,
// with admit when not nil) and never through an environment proxy, with
// cfg's TLS settings and bounded handshakes and response headers: the
// base of the fetcher's and the poster's.
func guardedTransport(cfg Config, d *dialer, admit ports.Admit) *http.Transport {
	t := &http.Transport{
		Proxy: nil, // never through an environment proxy: the guard checks what is dialled
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return d.dial(ctx, network, addr, admit)
		},
		TLSHandshakeTimeout:    cfg.ConnectTimeout,
		MaxResponseHeaderBytes: 64 << 10,
	}
	if cfg.TLS != nil {
		t.TLSClientConfig = cfg.TLS.Clone() // the transport adds its ALPN protocols to it
	}
	return t
}

// Fetch implements ports.PageFetcher: the page, then robots.txt, a probe
// of a random path of the final origin and what pagecheck.FollowUps names (the
// canonical URL, up to pagecheck.MaxAlternateFetches hreflang alternates, each
// once without following redirects), concurrently, all within one
// deadline. Only the page must answer; the others are nil (or have a nil
// Response) when they do not. Its connections are closed before it
// returns.
func (f *Fetcher) Fetch(ctx context.Context, rawURL string, admit ports.Admit) (*webpage.Fetched, error) {
	ctx, cancel := context.WithTimeout(ctx, f.cfg.Timeout)
	defer cancel()
	at := time.Now()
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, &webpage.FetchError{Reason: "the URL cannot be parsed", Refused: true, Err: err}
	}
	if err := f.guard.checkURL(u); err != nil {
		return nil, f.fetchError(ctx, err)
	}
	t := f.transport(admit)
	defer t.CloseIdleConnections()
	pg, err := f.get(ctx, t, u, f.cfg.MaxBytes, true)
	if err != nil {
		return nil, f.fetchError(ctx, err)
	}
	out := &webpage.Fetched{RequestedURL: rawURL, At: at, Page: *pg}
	if isHTML(pg) {
		out.Document = ParseHTML(pg.Body)
	}
	final, err := url.Parse(pg.URL)
	if err != nil {
		return out, nil
	}
	origin := &url.URL{Scheme: final.Scheme, Host: final.Host}
	next := pagecheck.FollowUps(out)
	var wg sync.WaitGroup
	wg.Go(func() { out.Robots = f.side(ctx, t, origin.JoinPath("robots.txt"), robotsMaxBytes) })
	wg.Go(func() { out.NotFound = f.side(ctx, t, origin.JoinPath(probePath()), probeMaxBytes) })
	if next.Canonical != "" {
		out.Canonical = &webpage.Linked{URL: next.Canonical}
		wg.Go(func() { f.linked(ctx, t, out.Canonical, probeMaxBytes) })
	}
	out.Alternates = make([]webpage.Linked, len(next.Alternates))
	for i, a := range next.Alternates {
		out.Alternates[i].URL = a
		wg.Go(func() { f.linked(ctx, t, &out.Alternates[i], alternateMaxBytes) })
	}
	wg.Wait()
	return out, nil
}

// side fetches a secondary resource; nil when it does not answer.
func (f *Fetcher) side(ctx context.Context, t *http.Transport, u *url.URL, limit int64) *webpage.Response {
	if f.guard.checkURL(u) != nil {
		return nil
	}
	r, err := f.get(ctx, t, u, limit, true)
	if err != nil {
		return nil
	}
	return r
}

// linked requests l.URL once, without following a redirect, and fills in
// its response (and document, for HTML); both stay nil when it does not
// answer or the guard refuses it.
func (f *Fetcher) linked(ctx context.Context, t *http.Transport, l *webpage.Linked, limit int64) {
	u, err := url.Parse(l.URL)
	if err != nil || f.guard.checkURL(u) != nil {
		return
	}
	r, err := f.get(ctx, t, u, limit, false)
	if err != nil {
		return
	}
	l.Response = r
	if r.Status >= 200 && r.Status < 300 && isHTML(r) {
		l.Document = ParseHTML(r.Body)
	}
}

// probePath is a random path no site should serve.
func probePath() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "pinsight-404-probe-" + hex.EncodeToString(b)
}

var errTooManyRedirects = errors.New("too many redirects")

// errLongRedirect refuses a redirect to a URL longer than report.MaxURLLen:
// the final URL is stored with the report and shown in every list.
var errLongRedirect = errors.New("redirect to an overlong URL")

// get requests u over t, follows up to MaxRedirects guarded redirects (none
// when follow is false: a redirect is then the answer) and reads the body
// up to limit decoded bytes.
func (f *Fetcher) get(ctx context.Context, t *http.Transport, u *url.URL, limit int64, follow bool) (*webpage.Response, error) {
	return f.request(ctx, t, u, limit, follow, nil)
}

// request is get, with extra request headers set by header when not nil
// (after the fetcher's own, which it may not replace: the crawl's
// settings refuse those names).
func (f *Fetcher) request(ctx context.Context, t *http.Transport, u *url.URL, limit int64, follow bool, header func(http.Header)) (*webpage.Response, error) {
	var remote string
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn: func(ci httptrace.GotConnInfo) { remote = ci.Conn.RemoteAddr().String() },
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", f.cfg.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
	req.Header.Set("Accept-Encoding", "gzip, deflate, br")
	req.Header.Set("Accept-Language", "en;q=0.9, *;q=0.5")
	if header != nil {
		header(req.Header)
	}
	var redirects []string
	client := &http.Client{
		Transport: t,
		CheckRedirect: func(next *http.Request, via []*http.Request) error {
			if !follow {
				return http.ErrUseLastResponse
			}
			if len(via) > f.cfg.MaxRedirects {
				return errTooManyRedirects
			}
			if len(next.URL.String()) > report.MaxURLLen {
				return errLongRedirect
			}
			if err := f.guard.checkURL(next.URL); err != nil {
				return err
			}
			redirects = append(redirects, via[len(via)-1].URL.String())
			return nil
		},
	}
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b := readBody(resp, limit)
	return &webpage.Response{
		URL:        resp.Request.URL.String(),
		Status:     resp.StatusCode,
		Header:     map[string][]string(resp.Header),
		Body:       b.body,
		Truncated:  b.truncated,
		WireBytes:  b.wire,
		Encoding:   resp.Header.Get("Content-Encoding"),
		Redirects:  redirects,
		Elapsed:    time.Since(start),
		RemoteAddr: remote,
	}, nil
}

// fetchError turns a transport failure into the domain's FetchError with a
// reason safe to show the client (what the guard found goes to the log).
// The error of the fetch's admit is returned as it is.
func (f *Fetcher) fetchError(ctx context.Context, err error) error {
	var admission *admissionError
	var refused *RefusedError
	var dnsErr *net.DNSError
	var opErr *net.OpError
	switch {
	case errors.As(err, &admission):
		return admission.err
	case errors.As(err, &refused):
		if refused.Detail != "" {
			f.log.InfoContext(ctx, "analysis target refused", "target", refused.Target, "detail", refused.Detail)
		}
		return &webpage.FetchError{Reason: "refused: " + refused.shown(), Refused: true, Err: err}
	case errors.Is(err, errTooManyRedirects):
		return &webpage.FetchError{Reason: "more than " + strconv.Itoa(f.cfg.MaxRedirects) + " redirects", Err: err}
	case errors.Is(err, errLongRedirect):
		return &webpage.FetchError{Reason: "a redirect to a URL longer than " + strconv.Itoa(report.MaxURLLen) + " characters", Err: err}
	case errors.Is(err, context.DeadlineExceeded):
		return &webpage.FetchError{Reason: "no response within " + f.cfg.Timeout.String(), Transient: true, Err: err}
	case errors.Is(err, context.Canceled):
		return &webpage.FetchError{Reason: "the request was cancelled", Err: err}
	case errors.As(err, &dnsErr):
		return &webpage.FetchError{Reason: "the host name " + dnsErr.Name + " could not be resolved", Err: err}
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return &webpage.FetchError{Reason: "the server could not be reached", Err: err}
	case isTLSError(err):
		return &webpage.FetchError{Reason: "the TLS connection failed (certificate or handshake)", Err: err}
	}
	return &webpage.FetchError{Reason: "the server did not answer with a valid HTTP response", Transient: isReset(err), Err: err}
}

// Interface guard.
var _ ports.PageFetcher = (*Fetcher)(nil)
