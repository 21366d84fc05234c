package redis

import (
	"context"
	"sync"
	"time"

	"github.com/go-redis/redis_rate/v10"

	"github.com/pinsight/pinsight/domain/ratelimit"
)

// Defaults of the leases.
const (
	// DefaultLeaseTime is the longest an instance answers from a lease.
	DefaultLeaseTime = time.Second
	// MaxLease is the most tokens one lease takes.
	MaxLease = 1024
	// leaseShare: a lease lasts at most Span/leaseShare, so it holds at
	// most Requests/leaseShare tokens.
	leaseShare = 64
)

// leaseCap is the most tokens a lease of limit may take, and how long a
// lease lasts: at most leaseTime and 1/64 of the limit's span, and as many
// tokens as come back in that time (at most MaxLease). Below 2 the limit
// is not leased: every request asks Redis.
func leaseCap(limit ratelimit.Limit, leaseTime time.Duration) (tokens int, lasts time.Duration) {
	if leaseTime <= 0 {
		return 0, 0
	}
	lasts = min(leaseTime, limit.Span()/leaseShare)
	return int(min(lasts/limit.Interval(), MaxLease)), lasts
}

// grant is Redis's answer to a lease request: got tokens taken at once
// (0: none fit, nothing taken), the time until the quota is whole again
// after them, and, when none fit, the time until one does.
type grant struct {
	got        int
	reset      time.Duration
	retryAfter time.Duration
}

// leases answer single requests of busy keys from tokens taken from Redis
// in batches. Per key, one lease at a time: its tokens are spent by the
// requests that follow until none are left or it expires; the next request
// asks for a new one, and requests arriving meanwhile wait for that one
// round trip instead of making their own. A lease's size adapts to the
// key's traffic on this instance: 1 for a key's first request, doubled when
// a lease was spent within half its time, cut to what was spent when one
// expired with tokens left, never above leaseCap.
type leases struct {
	now       func() time.Time
	take      func(ctx context.Context, key string, limit ratelimit.Limit, want int) (grant, error)
	leaseTime time.Duration

	mu      sync.Mutex
	keys    map[string]*lease
	sweepAt time.Time
}

// lease is one key's lease on this instance, and what its next size should
// be.
type lease struct {
	limit   ratelimit.Limit
	size    int       // tokens asked for by the last request (0: none yet)
	left    int       // tokens not spent yet
	asked   time.Time // when the last lease was asked for
	expires time.Time
	spent   time.Time // when its last token was spent (zero while some are left)
	tat     time.Time // when the quota is whole again once every token taken is spent
	round   *round    // the lease request in flight, if any
	// After a denial: until when requests are denied here without asking
	// (at most lasts), and when one request fits again.
	deniedUntil, allowAt time.Time
}

// round is one lease request; waiters read its outcome once done is
// closed.
type round struct {
	done     chan struct{}
	denied   bool
	decision ratelimit.Decision // when denied
	err      error
}

func newLeases(now func() time.Time, leaseTime time.Duration, take func(context.Context, string, ratelimit.Limit, int) (grant, error)) *leases {
	return &leases{now: now, take: take, leaseTime: leaseTime, keys: map[string]*lease{}}
}

// Take decides one request of key from its lease, asking Redis for a new
// lease when there is none left; requests arriving while one is asked for
// wait for it. A failed or denied lease request fails or denies its
// waiters too, and after a denial the key's requests are denied here
// until its RetryAfter has passed (at most a lease time), so a client over
// its quota costs about one round trip per RetryAfter, not one per
// request.
func (ls *leases) Take(ctx context.Context, key string, limit ratelimit.Limit) (ratelimit.Decision, error) {
	maxTokens, lasts := leaseCap(limit, ls.leaseTime)
	for {
		ls.mu.Lock()
		now := ls.now()
		ls.sweep(now)
		l := ls.keys[key]
		if l == nil || l.limit != limit {
			l = &lease{limit: limit}
			ls.keys[key] = l
		}
		if l.left > 0 && now.Before(l.expires) {
			d := l.spend(now)
			ls.mu.Unlock()
			return d, nil
		}
		if now.Before(l.deniedUntil) {
			d := l.denial(now)
			ls.mu.Unlock()
			return d, nil
		}
		if r := l.round; r != nil {
			ls.mu.Unlock()
			select {
			case <-r.done:
			case <-ctx.Done():
				return ratelimit.Decision{}, unavailable(ctx.Err())
			}
			if r.err != nil || r.denied {
				return r.decision, r.err
			}
			continue // the new lease's tokens, if any are left
		}
		want := min(l.nextSize(now, lasts), maxTokens)
		r := &round{done: make(chan struct{})}
		l.round = r
		ls.mu.Unlock()

		// The round trip serves the waiters too: the caller's cancellation
		// must not fail theirs (the limiter's timeout still bounds it).
		g, err := ls.take(context.WithoutCancel(ctx), key, limit, want)

		ls.mu.Lock()
		l.round = nil
		switch {
		case err != nil:
			r.err = err
		case g.got == 0:
			// No token comes back before allowAt (only the other
			// instances' leases take more), so until then, and for at
			// most lasts, requests are denied here.
			got := ls.now()
			l.tat, l.allowAt = got.Add(g.reset), got.Add(g.retryAfter)
			l.deniedUntil = got.Add(min(g.retryAfter, lasts))
			r.denied, r.decision = true, l.denial(got)
		default:
			// The lease counts from before the round trip, so it never
			// outlives lasts after Redis granted it.
			got := ls.now()
			l.size, l.left, l.asked, l.expires = want, g.got, now, now.Add(lasts)
			l.spent, l.tat = time.Time{}, got.Add(g.reset)
			d := l.spend(got)
			ls.mu.Unlock()
			close(r.done)
			return d, nil
		}
		ls.mu.Unlock()
		close(r.done)
		return r.decision, r.err
	}
}

// nextSize is the size of the key's next lease request: 1 for a new key,
// doubled after a lease spent within half of lasts, what was spent of one
// that expired with tokens left.
func (l *lease) nextSize(now time.Time, lasts time.Duration) int {
	switch {
	case l.size == 0:
		return 1
	case l.left > 0:
		return max(l.size-l.left, 1)
	case l.spent.Sub(l.asked) <= lasts/2 && now.Sub(l.spent) <= lasts/2:
		return 2 * l.size
	}
	return l.size
}

// spend takes one token of the lease at now and returns the decision: what
// the exact limiter would answer if Redis had been charged only the tokens
// spent so far.
func (l *lease) spend(now time.Time) ratelimit.Decision {
	l.left--
	if l.left == 0 {
		l.spent = now
	}
	reset := l.tat.Sub(now) - time.Duration(l.left)*l.limit.Interval()
	return decision(l.limit, &redis_rate.Result{Allowed: 1, ResetAfter: reset}, 1)
}

// denial is the decision for a request denied at now without asking.
func (l *lease) denial(now time.Time) ratelimit.Decision {
	return decision(l.limit, &redis_rate.Result{RetryAfter: l.allowAt.Sub(now), ResetAfter: l.tat.Sub(now)}, 1)
}

// sweep forgets, at most once per lease time, the keys whose lease expired
// more than a lease time ago with no request in flight, so the map holds
// only the keys active within about two lease times.
func (ls *leases) sweep(now time.Time) {
	if now.Before(ls.sweepAt) {
		return
	}
	ls.sweepAt = now.Add(ls.leaseTime)
	for key, l := range ls.keys {
		if l.round == nil && now.Sub(l.expires) > ls.leaseTime && now.Sub(l.deniedUntil) > ls.leaseTime {
			delete(ls.keys, key)
		}
	}
}
