package reports

import (
	"context"
	"log/slog"
	"net/netip"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/net/publicsuffix"

	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports"
)

// admission is the ports.Admit of one analysis: the first connection to a
// target site (registrable domain) takes one analysis from that site's
// quota, the first to an address one from that address's, so an analysis
// counts once per site and address it contacts (redirects included), and
// five names of one server share its address quota. The fetcher asks only
// for addresses its SSRF guard accepted, so a refused target counts
// nowhere. The quotas are politeness, shared by every user, and taken in
// turns (ports.TurnTaker, when the limiter is one): a throttled site's
// next analysis goes to the waiting user whose turn it is, so userID's
// analysis waits for one analysis of each other user waiting, never
// behind another user's backlog. Nil when nothing is throttled.
func (a *Analyser) admission(userID int64) ports.Admit {
	if a.limiter == nil || (!a.perSite.Enabled() && !a.perAddr.Enabled()) {
		return nil
	}
	var mu sync.Mutex
	admitted := map[string]bool{}
	party := strconv.FormatInt(userID, 10)
	turns, _ := a.limiter.(ports.TurnTaker)
	take := func(ctx context.Context, key, subject string, limit ratelimit.Limit) error {
		if !limit.Enabled() || admitted[key] {
			return nil
		}
		var d ratelimit.Decision
		var err error
		if turns != nil {
			d, err = turns.TakeTurn(ctx, key, party, limit)
		} else {
			d, err = a.limiter.Take(ctx, key, limit)
		}
		if err != nil { // fail open: a broken limiter must not take analyses down
			slog.WarnContext(ctx, "analysis throttle unavailable; analysing anyway", "key", key, "err", err)
		} else if !d.Allowed {
			return &ThrottledError{Host: subject, Wait: d.RetryAfter}
		}
		admitted[key] = true
		return nil
	}
	return func(ctx context.Context, t ports.Target) error {
		mu.Lock() // robots.txt and the probe connect concurrently
		defer mu.Unlock()
		s := siteOf(t.Host)
		if err := take(ctx, "analyse-site:"+s, s, a.perSite); err != nil {
			return err
		}
		addr := t.Addr.Unmap().String()
		return take(ctx, "analyse-addr:"+addr, addr, a.perAddr)
	}
}

// siteOf is the site a host belongs to: its registrable domain (public
// suffix plus one label: example.com for www.example.com, example.co.uk for
// a.example.co.uk, alice.github.io for a.alice.github.io). An IP address, a
// public suffix itself or a single-label name is its own site.
func siteOf(host string) string {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if _, err := netip.ParseAddr(host); err == nil {
		return host
	}
	if d, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
		return d
	}
	return host
}
