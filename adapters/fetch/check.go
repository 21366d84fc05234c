package fetch

import (
	"context"
	"errors"
	"net/netip"
	"net/url"
	"time"

	"github.com/pinsight/pinsight/domain/webpage"
)

// checkLookupTimeout bounds the lookup of a target's host when it is
// checked (a webhook's or a crawl's, as it is asked for).
const checkLookupTimeout = 3 * time.Second

// checkTarget refuses, before any request, a target its requests would
// be refused: what checkTargetURL refuses, then the lookup each connection
// makes (lookup), bounded by checkLookupTimeout. A name that does not
// exist, or whose addresses are all refused, is refused; a lookup that
// fails otherwise (a timeout, a server failure) is not, as it may pass by
// the time of a request. Refusals are *webpage.FetchError, their reason
// with the hint that lifts them (RefusedError.shown).
func checkTarget(ctx context.Context, g *guard, d *dialer, rawURL string) error {
	u, err := checkTargetURL(g, rawURL)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, checkLookupTimeout)
	defer cancel()
	host, addr := dialledHost(u.Hostname()), hostPort(u)
	ips, refused, err := d.lookup(ctx, host, addr)
	switch {
	case err != nil:
		return unresolved(err)
	case len(ips) == 0:
		return refusedFetch(errors.Join(refused...))
	}
	return nil
}

// checkTargetURL parses rawURL and refuses what can be told without a
// lookup: the guard's checkURL, and an address literal outside the public
// range.
func checkTargetURL(g *guard, rawURL string) (*url.URL, error) {
	u, err := url.Parse(rawURL)
	if err != nil || !u.IsAbs() {
		return nil, &webpage.FetchError{Reason: "the URL is not an absolute http or https URL", Refused: true}
	}
	if err := g.checkURL(u); err != nil {
		return nil, refusedFetch(err)
	}
	if ip, err := netip.ParseAddr(dialledHost(u.Hostname())); err == nil && !g.exempt(hostPort(u)) {
		if r := blockedReason(ip); r != "" {
			re := refusedAddress(u.Host, u.Hostname(), ip, r)
			re.Allow = hostPort(u)
			return nil, refusedFetch(re)
		}
	}
	return u, nil
}

// Check implements ports.SiteFetcher: a crawl's start URL is checked as a
// webhook's URL is (checkTarget), when the crawl is asked for.
func (f *Fetcher) Check(ctx context.Context, rawURL string) error {
	return checkTarget(ctx, f.guard, f.dialer, rawURL)
}
