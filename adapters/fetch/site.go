package fetch

import (
	"context"
	"net/http"
	"net/url"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// Session implements ports.SiteFetcher: a transport of its own, without
// admission (a crawl's politeness is its own), whose connections the
// crawl's requests share.
func (f *Fetcher) Session() ports.SiteSession {
	return &siteSession{f: f, t: f.transport(nil)}
}

// siteSession is one crawl's requests.
type siteSession struct {
	f *Fetcher
	t *http.Transport
}

// Get implements ports.SiteSession. The headers are set on this one
// request, which follows no redirect, so they never reach another URL.
func (s *siteSession) Get(ctx context.Context, rawURL string, headers []crawl.Header, maxBytes int64) (*webpage.Linked, error) {
	ctx, cancel := context.WithTimeout(ctx, s.f.cfg.Timeout)
	defer cancel()
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, &webpage.FetchError{Reason: "the URL cannot be parsed", Refused: true, Err: err}
	}
	if err := s.f.guard.checkURL(u); err != nil {
		return nil, s.f.fetchError(ctx, err)
	}
	if maxBytes <= 0 {
		maxBytes = s.f.cfg.MaxBytes
	}
	r, err := s.f.request(ctx, s.t, u, maxBytes, false, func(h http.Header) {
		for _, x := range headers {
			h.Set(x.Name, x.Value)
		}
	})
	if err != nil {
		return nil, s.f.fetchError(ctx, err)
	}
	out := &webpage.Linked{URL: rawURL, Response: r}
	if r.Status >= 200 && r.Status < 300 && isHTML(r) {
		out.Document = ParseHTML(r.Body)
	}
	return out, nil
}

// Close implements ports.SiteSession.
func (s *siteSession) Close() { s.t.CloseIdleConnections() }

// Interface guard.
var _ ports.SiteFetcher = (*Fetcher)(nil)
