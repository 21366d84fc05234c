package fetch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"

	"github.com/pinsight/pinsight/domain/webhook"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// Poster sends webhook deliveries through the analyser's guard: the same
// schemes, ports and addresses are refused (allow-list included), no
// environment proxy, no redirects followed, webhook.Timeout per POST.
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
	client := &http.Client{Transport: t, Timeout: webhook.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &Poster{guard: g, client: client}, nil
}

// Check implements ports.WebhookPoster: the URL's scheme, host, port, and
// an address literal's range.
func (p *Poster) Check(rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil || !u.IsAbs() {
		return &webpage.FetchError{Reason: "the URL is not an absolute http or https URL", Refused: true}
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
	return &webpage.FetchError{Reason: reason, Refused: true, Err: err}
}

// The headers of a webhook delivery besides Content-Type: receivers read
// the signature, event and delivery by these names.
const (
	webhookAgent           = "Pinsight-Webhook/1"
	webhookSignatureHeader = "Pinsight-Signature"
	webhookEventHeader     = "Pinsight-Event"
	webhookDeliveryHeader  = "Pinsight-Delivery"
)

// Post implements ports.WebhookPoster: a POST of m.Body as
// application/json, with the signature, event and delivery id in headers.
func (p *Poster) Post(ctx context.Context, rawURL string, m webhook.Message) (int, error) {
	if err := p.Check(rawURL); err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rawURL, bytes.NewReader(m.Body))
	if err != nil {
		return 0, &webpage.FetchError{Reason: "the URL cannot be requested", Refused: true, Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", webhookAgent)
	req.Header.Set(webhookSignatureHeader, m.Signature)
	req.Header.Set(webhookEventHeader, m.Event)
	req.Header.Set(webhookDeliveryHeader, strconv.FormatInt(m.DeliveryID, 10))
	resp, err := p.client.Do(req)
	if err != nil {
		var re *RefusedError
		if errors.As(err, &re) {
			return 0, refusedFetch(re)
		}
		return 0, &webpage.FetchError{Reason: "no answer: " + err.Error(), Transient: true, Err: err}
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

// Interface guard.
var _ ports.WebhookPoster = (*Poster)(nil)
