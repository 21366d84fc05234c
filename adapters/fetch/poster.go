package fetch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
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
	dialer *dialer
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
	d := newDialer(g, cfg.Resolver, cfg)
	t := guardedTransport(cfg, d, nil)
	t.MaxIdleConnsPerHost = 2
	client := &http.Client{Transport: t, Timeout: webhook.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &Poster{guard: g, dialer: d, client: client}, nil
}

// Check implements ports.WebhookPoster: checkTarget.
func (p *Poster) Check(ctx context.Context, rawURL string) error {
	return checkTarget(ctx, p.guard, p.dialer, rawURL)
}

// checkURL is checkTargetURL with p's guard.
func (p *Poster) checkURL(rawURL string) (*url.URL, error) { return checkTargetURL(p.guard, rawURL) }

// unresolved is the refusal of a host name that does not exist (a
// *net.DNSError IsNotFound in err's chain): retrying will not make it
// exist. Any other error is nil.
func unresolved(err error) error {
	var dnsErr *net.DNSError
	if !errors.As(err, &dnsErr) || !dnsErr.IsNotFound {
		return nil
	}
	return &webpage.FetchError{Reason: "the host name " + dnsErr.Name + " does not resolve", Refused: true, Err: err}
}

// refusedFetch is the *webpage.FetchError of a refusal: its reason and
// hint (RefusedError.shown), or err's text when it holds no
// *RefusedError.
func refusedFetch(err error) error {
	var re *RefusedError
	reason := err.Error()
	if errors.As(err, &re) {
		reason = re.shown()
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
// The URL is checked as Check does, the lookup when dialling: a name that
// does not exist is refused, a lookup that fails otherwise may pass.
func (p *Poster) Post(ctx context.Context, rawURL string, m webhook.Message) (int, error) {
	if _, err := p.checkURL(rawURL); err != nil {
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
		if fe := unresolved(err); fe != nil {
			return 0, fe
		}
		return 0, &webpage.FetchError{Reason: "no answer: " + err.Error(), Transient: true, Err: err}
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

// Interface guard.
var _ ports.WebhookPoster = (*Poster)(nil)
