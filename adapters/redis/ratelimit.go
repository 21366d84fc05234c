package redis

import (
	"context"
	"time"

	"github.com/go-redis/redis_rate/v10"
	goredis "github.com/redis/go-redis/v9"

	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports"
)

// Take implements ports.RateLimiter. A limit too small to lease (see the
// package doc) costs one round trip per request, as TakeN; a larger one is
// answered from this instance's lease of the key's tokens when it holds
// one, else with one round trip that takes a new lease, shared by the
// requests of the key arriving meanwhile (and by other keys' lease
// requests: see pipeline). It fails (ports.ErrUnavailable)
// when Redis does not answer within the timeout; nothing is retried.
func (l *RateLimiter) Take(ctx context.Context, key string, limit ratelimit.Limit) (ratelimit.Decision, error) {
	if err := limit.Check(1); err != nil {
		return ratelimit.Decision{}, err
	}
	if tokens, _ := leaseCap(limit, l.leases.leaseTime); tokens >= 2 {
		return l.leases.Take(ctx, key, limit)
	}
	return l.TakeN(ctx, key, limit, 1)
}

// TakeN implements ports.RateLimiter with one round trip: redis_rate's
// GCRA script (AllowN, n at once or nothing) reads the client's state,
// decides with Redis's clock (so every instance shares one) and stores the
// new state, expiring when the quota is whole again. It takes no lease and
// leaves this instance's lease alone.
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

// leaseScript takes up to ARGV[3] tokens at once, as many as are free
// (none: nothing is taken), from the GCRA state redis_rate keeps (its key,
// its theoretical arrival time in float seconds since 2017), so leases and
// redis_rate's single takes share one quota. ARGV[1] is the limit's
// requests, ARGV[2] its span in seconds. A token that becomes free within
// half a microsecond counts as free, as in decision. It answers the tokens
// taken, the seconds until one is free (-1 when some were taken) and the
// seconds until the quota is whole again.
var leaseScript = goredis.NewScript(`
redis.replicate_commands()
local key = KEYS[1]
local burst = tonumber(ARGV[1])
local interval = tonumber(ARGV[2]) / burst
local want = tonumber(ARGV[3])
local now = redis.call("TIME")
now = (now[1] - 1483228800) + (now[2] / 1000000)
local tat = redis.call("GET", key)
if tat then tat = math.max(tonumber(tat), now) else tat = now end
local free = math.floor((now - tat + burst * interval + 0.0000005) / interval)
local got = math.min(want, free)
if got < 1 then
  return {0, tostring(tat - burst * interval + interval - now), tostring(tat - now)}
end
local new_tat = tat + got * interval
redis.call("SET", key, new_tat, "EX", math.ceil(new_tat - now))
return {got, "-1", tostring(new_tat - now)}
`)

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
