package redis

import (
	"context"
	"time"

	"github.com/go-redis/redis_rate/v10"

	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports"
)

// Take implements ports.RateLimiter with one round trip: redis_rate's GCRA
// script reads the client's state, decides with Redis's clock (so every
// instance shares one) and stores the new state, expiring when the quota
// is whole again. It fails (ports.ErrUnavailable) when Redis does not
// answer within the timeout; nothing is retried.
func (l *RateLimiter) Take(ctx context.Context, key string, limit ratelimit.Limit) (ratelimit.Decision, error) {
	return l.TakeN(ctx, key, limit, 1)
}

// TakeN implements ports.RateLimiter as Take does, with redis_rate's
// AllowN: the script takes n at once or nothing.
func (l *RateLimiter) TakeN(ctx context.Context, key string, limit ratelimit.Limit, n int) (ratelimit.Decision, error) {
	if err := limit.Check(n); err != nil {
		return ratelimit.Decision{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	res, err := l.limiter.AllowN(ctx, l.prefix+key, redis_rate.Limit{
		Rate:  limit.Requests,
		Burst: limit.Requests,
		// The span, not the window: the script's interval is then ours
		// (Window/Requests truncated to the nanosecond).
		Period: limit.Span(),
	}, n)
	if err != nil {
		return ratelimit.Decision{}, unavailable(err)
	}
	return decision(limit, res, n), nil
}

// decision maps redis_rate's result onto ratelimit.Decision as
// ratelimit.Limit.Take would decide. The script works in float seconds
// from 2017 on Redis's microsecond clock, so its durations carry noise of
// a fraction of a microsecond (1200 s comes back as 1200.00000003 s) and
// its Remaining is truncated from such a float (599.9999997 gives 599, one
// short). Durations are therefore rounded to Redis's microsecond, and
// Remaining is recomputed from Reset as ours is, allowing the half
// microsecond of that rounding: a request that becomes free within half a
// microsecond counts as remaining. Denied, the script's Remaining is 0;
// ours, how many of the n fit now, is recomputed from Reset the same way
// (and stays below n).
func decision(limit ratelimit.Limit, res *redis_rate.Result, n int) ratelimit.Decision {
	d := ratelimit.Decision{Limit: limit.Requests, Allowed: res.Allowed > 0, Reset: microseconds(res.ResetAfter)}
	d.Remaining = limit.RemainingAt(d.Reset - time.Microsecond/2)
	if !d.Allowed {
		d.RetryAfter = max(microseconds(res.RetryAfter), time.Microsecond)
		d.Remaining = min(d.Remaining, n-1)
	}
	return d
}

// microseconds rounds d to the microsecond; negative values (redis_rate's
// -1 for "not applicable") become 0.
func microseconds(d time.Duration) time.Duration { return max(d, 0).Round(time.Microsecond) }

// Interface guard.
var _ ports.RateLimiter = (*RateLimiter)(nil)
