package fetch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/netip"
	"net/url"

	"github.com/pinsight/pinsight/domain/site"
	"github.com/pinsight/pinsight/ports"
)

// Poster sends webhook deliveries through the analyser's guard: the same
// schemes, ports and addresses are refused (allow-list included), no
// environment proxy, no redirects followed, site.WebhookTimeout per POST.
type Poster struct {
	guard  *guard
	client *http.Client
}

// NewPoster returns a poster with cfg's guard (zero fields defaulted). It
// fails on a malformed allow-list entry.
func NewPoster(cfg Config) (*Poster, error) {
	cfg = cfg.withDefaults()
	g, err := newGuard(cfg)
	if err != nil {
		return nil, err
	}
	t := guardedTransport(cfg, newDialer(g, cfg.Resolver, cfg), nil)
	t.MaxIdleConnsPerHost = 2
	client := &http.Client{Transport: t, Timeout: site.WebhookTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &Poster{guard: g, client: client}, nil
}

// Check implements ports.WebhookPoster: the URL's scheme, host, port, and
// an address literal's range.
func (p *Poster) Check(rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil || !u.IsAbs() {
		return &site.FetchError{Reason: "the URL is not an absolute http or https URL", Refused: true}
	}
	if err := p.guard.checkURL(u); err != nil {
		return refusedFetch(err)
	}
	if ip, err := netip.ParseAddr(dialledHost(u.Hostname())); err == nil && !p.guard.exempt(hostPort(u)) {
		if r := blockedReason(ip); r != "" {
			return refusedFetch(refusedAddress(u.Host, u.Hostname(), ip, r))
		}
	}
	return nil
}

func refusedFetch(err error) error {
	var re *RefusedError
	reason := err.Error()
	if errors.As(err, &re) {
		reason = re.Reason
	}
	return &site.FetchError{Reason: reason, Refused: true, Err: err}
}

// Post implements ports.WebhookPoster.
func (p *Poster) Post(ctx context.Context, rawURL string, headers map[string]string, body []byte) (int, error) {
	if err := p.Check(rawURL); err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rawURL, bytes.NewReader(body))
	if err != nil {
		return 0, &site.FetchError{Reason: "the URL cannot be requested", Refused: true, Err: err}
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		var re *RefusedError
		if errors.As(err, &re) {
			return 0, refusedFetch(re)
		}
		return 0, &site.FetchError{Reason: "no answer: " + err.Error(), Transient: true, Err: err}
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

// Interface guard.
var _ ports.WebhookPoster = (*Poster)(nil)
