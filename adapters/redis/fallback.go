package redis

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports"
)

// DefaultRetryInterval is how long Fallback serves from its Secondary after
// the Primary failed, before it tries the Primary again.
const DefaultRetryInterval = time.Second

// DegradedDetail is what Degraded says while the Secondary serves: a fixed
// text, safe to show (the cause goes to the log).
const DegradedDetail = "shared rate limiter unreachable: quotas are counted per instance"

// Pinger is a limiter that can tell whether it answers (RateLimiter does).
type Pinger interface {
	Ping(ctx context.Context) error
}

// Fallback is a ports.RateLimiter that decides with Primary (the shared
// limiter) while it answers and with Secondary (an in-process one) when it
// fails, so requests are always decided: never an error, never a wait
// longer than the Primary's own timeout. After a failure it leaves the
// Primary alone for RetryInterval, then lets one call try it again while
// the others keep to the Secondary. Transitions are logged once each, and
// Degraded reports the state for a readiness check.
//
// While degraded, quotas are per instance (N instances allow N times the
// quota); the Secondary's counts start from what it saw, and the Primary's
// from what it had when it comes back.
type Fallback struct {
	Primary   ports.RateLimiter
	Secondary ports.RateLimiter
	// RetryInterval is how long the Secondary serves alone after a failure
	// (default DefaultRetryInterval).
	RetryInterval time.Duration
	// Logger receives the transitions (default slog.Default()).
	Logger *slog.Logger

	mu       sync.Mutex
	degraded bool
	retryAt  time.Time // while degraded: when the Primary may be tried again
	trying   bool      // while degraded: a call is trying the Primary
}

// NewFallback returns a Fallback with the default retry interval, logging
// to logger (nil: slog.Default()).
func NewFallback(primary, secondary ports.RateLimiter, logger *slog.Logger) *Fallback {
	return &Fallback{Primary: primary, Secondary: secondary, Logger: logger}
}

// Take implements ports.RateLimiter with the limiters' own Take (the
// Primary's may answer from a lease).
func (f *Fallback) Take(ctx context.Context, key string, limit ratelimit.Limit) (ratelimit.Decision, error) {
	return f.decide(ctx, limit, 1, func(l ports.RateLimiter) (ratelimit.Decision, error) { return l.Take(ctx, key, limit) })
}

// TakeN implements ports.RateLimiter.
func (f *Fallback) TakeN(ctx context.Context, key string, limit ratelimit.Limit, n int) (ratelimit.Decision, error) {
	return f.decide(ctx, limit, n, func(l ports.RateLimiter) (ratelimit.Decision, error) { return l.TakeN(ctx, key, limit, n) })
}

// TakeTurn implements ports.TurnTaker with the limiters' own TakeTurn
// (Take for one that is no ports.TurnTaker).
func (f *Fallback) TakeTurn(ctx context.Context, key, party string, limit ratelimit.Limit) (ratelimit.Decision, error) {
	return f.decide(ctx, limit, 1, func(l ports.RateLimiter) (ratelimit.Decision, error) {
		if tt, ok := l.(ports.TurnTaker); ok {
			return tt.TakeTurn(ctx, key, party, limit)
		}
		return l.Take(ctx, key, limit)
	})
}

// GiveBack implements ports.QuotaReturner: the Primary gives back while
// it may be tried and answers, else the Secondary (when they are
// QuotaReturners; otherwise nothing comes back).
func (f *Fallback) GiveBack(ctx context.Context, key string, limit ratelimit.Limit, n int, until time.Time, receipt string) (int, error) {
	if r, ok := f.Primary.(ports.QuotaReturner); ok && f.tryPrimary() {
		got, err := r.GiveBack(ctx, key, limit, n, until, receipt)
		if f.settle(ctx, err) {
			return got, err
		}
	}
	if r, ok := f.Secondary.(ports.QuotaReturner); ok {
		return r.GiveBack(ctx, key, limit, n, until, receipt)
	}
	return 0, nil
}

// decide asks the Primary, while it may be tried and answers, else the
// Secondary, for n requests against limit.
func (f *Fallback) decide(ctx context.Context, limit ratelimit.Limit, n int, take func(ports.RateLimiter) (ratelimit.Decision, error)) (ratelimit.Decision, error) {
	if err := limit.Check(n); err != nil && !errors.Is(err, ratelimit.ErrDisabled) {
		return ratelimit.Decision{}, err // the caller's, whichever limiter answers
	}
	if f.tryPrimary() {
		d, err := take(f.Primary)
		if f.settle(ctx, err) {
			return d, err
		}
	}
	return take(f.Secondary)
}

// Degraded reports whether the Secondary is serving, with DegradedDetail
// when it is. When the Primary is a Pinger and may be tried (it is healthy,
// or the retry interval has passed), it pings it first, so an idle instance
// notices both an outage and a recovery.
func (f *Fallback) Degraded(ctx context.Context) (bool, string) {
	if p, ok := f.Primary.(Pinger); ok && f.tryPrimary() {
		f.settle(ctx, p.Ping(ctx))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.degraded {
		return true, DegradedDetail
	}
	return false, ""
}

// tryPrimary reports whether a call may use the Primary now, reserving the
// one try allowed while degraded.
func (f *Fallback) tryPrimary() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.degraded {
		return true
	}
	if f.trying || time.Now().Before(f.retryAt) {
		return false
	}
	f.trying = true
	return true
}

// settle records the outcome of a call to the Primary and reports whether
// its answer stands. A disabled limit is an answer; a failure whose cause
// is the caller's context (cancelled, or a deadline shorter than the
// Primary's timeout) says nothing about the Primary and changes nothing.
func (f *Fallback) settle(ctx context.Context, err error) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	wasTrying := f.trying
	f.trying = false
	switch {
	case err == nil || errors.Is(err, ratelimit.ErrDisabled):
		// Only the one try recovers: a call that began before the failure
		// and answered late says little about the Primary now.
		if f.degraded && wasTrying {
			f.degraded = false
			f.logger().Info("shared rate limiter answers again: quotas are shared across instances")
		}
		return true
	case ctx.Err() != nil:
		if wasTrying {
			f.retryAt = time.Time{} // the next call tries again
		}
		return false
	}
	f.retryAt = time.Now().Add(f.retryInterval())
	if !f.degraded {
		f.degraded = true
		f.logger().Warn("shared rate limiter failed: counting quotas per instance until it answers",
			"err", err, "retry_every", f.retryInterval())
	}
	return false
}

func (f *Fallback) retryInterval() time.Duration {
	if f.RetryInterval > 0 {
		return f.RetryInterval
	}
	return DefaultRetryInterval
}

func (f *Fallback) logger() *slog.Logger {
	if f.Logger != nil {
		return f.Logger
	}
	return slog.Default()
}

// Interface guard.
var (
	_ ports.RateLimiter   = (*Fallback)(nil)
	_ ports.QuotaReturner = (*Fallback)(nil)
	_ ports.TurnTaker     = (*Fallback)(nil)
)
