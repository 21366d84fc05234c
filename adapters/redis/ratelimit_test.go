package redis_test

import (
	"testing"
	"time"

	"github.com/go-redis/redis_rate/v10"

	"github.com/pinsight/pinsight/adapters/redis"
	"github.com/pinsight/pinsight/domain/ratelimit"
)

// TestDecisionMatchesDomain feeds the mapping the results redis_rate's
// script gives, float noise included, and expects what
// ratelimit.Limit.Take decides in the same situation.
func TestDecisionMatchesDomain(t *testing.T) {
	perMinute := ratelimit.Limit{Requests: 600, Window: time.Minute}  // interval 100 ms
	perHour := ratelimit.Limit{Requests: 3, Window: time.Hour}        // interval 20 min
	sixPerSecond := ratelimit.Limit{Requests: 6, Window: time.Second} // interval 166666666 ns, not whole microseconds
	tests := []struct {
		name  string
		limit ratelimit.Limit
		n     int // requests at once; 0 is 1
		res   redis_rate.Result
		want  ratelimit.Decision
	}{{
		// now + 0.1 rounded up at 2.9e8 s: the script's remaining is 598.9999997, truncated to 598.
		name: "first request, reset a little above the interval", limit: perMinute,
		res:  redis_rate.Result{Allowed: 1, Remaining: 598, RetryAfter: -1, ResetAfter: 100000029 * time.Nanosecond},
		want: ratelimit.Decision{Allowed: true, Limit: 600, Remaining: 599, Reset: 100 * time.Millisecond},
	}, {
		name: "first request, reset a little below the interval", limit: perMinute,
		res:  redis_rate.Result{Allowed: 1, Remaining: 599, RetryAfter: -1, ResetAfter: 99999971 * time.Nanosecond},
		want: ratelimit.Decision{Allowed: true, Limit: 600, Remaining: 599, Reset: 100 * time.Millisecond},
	}, {
		name: "third of three", limit: perHour,
		res:  redis_rate.Result{Allowed: 1, Remaining: 0, RetryAfter: -1, ResetAfter: time.Hour - 29*time.Nanosecond},
		want: ratelimit.Decision{Allowed: true, Limit: 3, Remaining: 0, Reset: time.Hour},
	}, {
		name: "denied", limit: perHour,
		res:  redis_rate.Result{Allowed: 0, Remaining: 0, RetryAfter: 20*time.Minute - 31*time.Nanosecond, ResetAfter: time.Hour + 12*time.Nanosecond},
		want: ratelimit.Decision{Allowed: false, Limit: 3, RetryAfter: 1200 * time.Second, Reset: time.Hour},
	}, {
		// The interval's 0.666 µs rounds the reset up: without the half
		// microsecond allowance the first request would say 4 left.
		name: "first request, interval not whole microseconds", limit: sixPerSecond,
		res:  redis_rate.Result{Allowed: 1, Remaining: 5, RetryAfter: -1, ResetAfter: 166666666 * time.Nanosecond},
		want: ratelimit.Decision{Allowed: true, Limit: 6, Remaining: 5, Reset: 166667 * time.Microsecond},
	}, {
		name: "denied a hair before the next request is free", limit: sixPerSecond,
		res:  redis_rate.Result{Allowed: 0, Remaining: 0, RetryAfter: 100 * time.Nanosecond, ResetAfter: time.Second},
		want: ratelimit.Decision{Allowed: false, Limit: 6, RetryAfter: time.Microsecond, Reset: time.Second},
	}, {
		// One of three taken just now: all three fit when it is back, two
		// fit now.
		name: "three at once denied, two fit", limit: perHour, n: 3,
		res:  redis_rate.Result{Allowed: 0, Remaining: 0, RetryAfter: 20*time.Minute - 31*time.Nanosecond, ResetAfter: 20*time.Minute + 12*time.Nanosecond},
		want: ratelimit.Decision{Allowed: false, Limit: 3, Remaining: 2, RetryAfter: 1200 * time.Second, Reset: 20 * time.Minute},
	}, {
		name: "two at once allowed, one left", limit: perHour, n: 2,
		res:  redis_rate.Result{Allowed: 2, Remaining: 0, RetryAfter: -1, ResetAfter: 40*time.Minute - 29*time.Nanosecond},
		want: ratelimit.Decision{Allowed: true, Limit: 3, Remaining: 1, Reset: 40 * time.Minute},
	}}
	for _, tt := range tests {
		if got := redis.Decision(tt.limit, &tt.res, max(tt.n, 1)); got != tt.want {
			t.Errorf("%s: %+v gives %+v, want %+v", tt.name, tt.res, got, tt.want)
		}
	}
}

// TestDecisionAgreesWithDomainOverABurst replays a burst through
// ratelimit.Limit.Take and checks that a script result carrying its reset
// (as the script's float seconds would, off by up to 0.1 µs) maps to the
// same decision.
func TestDecisionAgreesWithDomainOverABurst(t *testing.T) {
	for _, limit := range []ratelimit.Limit{
		{Requests: 600, Window: time.Minute}, {Requests: 3, Window: time.Hour},
		{Requests: 6, Window: time.Second}, {Requests: 7, Window: time.Second}, {Requests: 10, Window: 30 * time.Second},
	} {
		now := time.Unix(1e9, 0)
		var tat time.Time
		for i := range limit.Requests + 2 {
			now = now.Add(37 * time.Microsecond) // a round trip apart
			want, next, _ := limit.Take(tat, now)
			tat = next
			for _, noise := range []time.Duration{-100, 0, 100} {
				res := redis_rate.Result{Allowed: 0, RetryAfter: want.RetryAfter + noise, ResetAfter: want.Reset + noise}
				if want.Allowed {
					res = redis_rate.Result{Allowed: 1, RetryAfter: -1, ResetAfter: want.Reset + noise}
				}
				got := redis.Decision(limit, &res, 1)
				if got.Allowed != want.Allowed || got.Limit != want.Limit || got.Remaining != want.Remaining ||
					!near(got.Reset, want.Reset) || !near(got.RetryAfter, want.RetryAfter) {
					t.Fatalf("%v request %d, noise %v: got %+v, want %+v", limit, i, noise, got, want)
				}
			}
		}
	}
}

// near reports whether a duration rounded to Redis's microsecond matches
// the exact one.
func near(got, exact time.Duration) bool { return (got - exact).Abs() <= time.Microsecond }
