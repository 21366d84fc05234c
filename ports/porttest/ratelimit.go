package porttest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports"
)

// TestRateLimiter checks a RateLimiter against the rule of
// domain/ratelimit: N requests in a burst, then one per Window/N, each
// decision's fields as ratelimit.Limit.Take gives them; n requests at once
// as ratelimit.Limit.TakeN does. newLimiter must
// return a limiter with no recorded requests.
func TestRateLimiter(t *testing.T, newLimiter func(t *testing.T) ports.RateLimiter) {
	ctx := context.Background()
	t.Run("burst", func(t *testing.T) {
		l := newLimiter(t)
		limit := ratelimit.Limit{Requests: 3, Window: time.Hour}
		for i := range 3 {
			d, err := l.Take(ctx, "client-a", limit)
			if err != nil || !d.Allowed || d.Remaining != 2-i || d.Limit != 3 || d.RetryAfter != 0 {
				t.Fatalf("request %d = %+v, %v", i, d, err)
			}
			// Reset: until the i+1 requests taken are back, a few moments ago.
			if want := time.Duration(i+1) * 20 * time.Minute; d.Reset > want || d.Reset < want-time.Minute {
				t.Errorf("request %d: Reset %v, want about %v", i, d.Reset, want)
			}
		}
		d, err := l.Take(ctx, "client-a", limit)
		if err != nil || d.Allowed || d.Remaining != 0 || d.Limit != 3 {
			t.Errorf("over quota = %+v, %v; want denied", d, err)
		}
		if d.RetryAfter <= 19*time.Minute || d.RetryAfter > 20*time.Minute || d.Reset <= 59*time.Minute || d.Reset > time.Hour {
			t.Errorf("over quota = %+v; want RetryAfter about 20 min, Reset about 1 h", d)
		}
		if d, err := l.Take(ctx, "client-b", limit); err != nil || !d.Allowed || d.Remaining != 2 {
			t.Errorf("another key = %+v, %v; want allowed with the whole quota", d, err)
		}
	})
	t.Run("first request of new clients", func(t *testing.T) {
		// 100 ms per request: not a binary fraction of a second, so an
		// implementation counting in float seconds must still round right.
		l := newLimiter(t)
		limit := ratelimit.Limit{Requests: 600, Window: time.Minute}
		for i := range 20 {
			d, err := l.Take(ctx, fmt.Sprintf("client-%d", i), limit)
			if err != nil || !d.Allowed || d.Limit != 600 || d.Remaining != 599 || d.Reset <= 0 || d.Reset > 100*time.Millisecond {
				t.Fatalf("first request of client %d = %+v, %v; want allowed, 599 remaining, Reset up to 100 ms", i, d, err)
			}
		}
	})
	t.Run("refill", func(t *testing.T) {
		l := newLimiter(t)
		limit := ratelimit.Limit{Requests: 2, Window: 400 * time.Millisecond}
		var d ratelimit.Decision
		for range 3 {
			d, _ = l.Take(ctx, "client-a", limit)
		}
		if d.Allowed || d.RetryAfter <= 0 || d.RetryAfter > 200*time.Millisecond {
			t.Fatalf("third of 2 per 400 ms = %+v; want denied, RetryAfter up to 200 ms", d)
		}
		time.Sleep(d.RetryAfter + 5*time.Millisecond)
		if d, err := l.Take(ctx, "client-a", limit); err != nil || !d.Allowed || d.Remaining != 0 {
			t.Errorf("after RetryAfter = %+v, %v; want one request allowed", d, err)
		}
	})
	t.Run("several at once", func(t *testing.T) {
		l := newLimiter(t)
		limit := ratelimit.Limit{Requests: 10, Window: time.Hour} // one back every 6 min
		d, err := l.TakeN(ctx, "client-a", limit, 7)
		if err != nil || !d.Allowed || d.Remaining != 3 || d.Limit != 10 || d.RetryAfter != 0 {
			t.Fatalf("7 of 10 = %+v, %v; want allowed, 3 remaining", d, err)
		}
		if want := 42 * time.Minute; d.Reset > want || d.Reset < want-time.Minute {
			t.Errorf("7 of 10: Reset %v, want about %v", d.Reset, want)
		}
		// Five do not fit: nothing is taken, three would fit now, all five
		// once two are back.
		d, err = l.TakeN(ctx, "client-a", limit, 5)
		if err != nil || d.Allowed || d.Remaining != 3 || d.Limit != 10 {
			t.Fatalf("5 more = %+v, %v; want denied, 3 fitting now", d, err)
		}
		if d.RetryAfter <= 11*time.Minute || d.RetryAfter > 12*time.Minute || d.Reset <= 41*time.Minute || d.Reset > 42*time.Minute {
			t.Errorf("5 more = %+v; want RetryAfter about 12 min, Reset about 42 min", d)
		}
		d, err = l.TakeN(ctx, "client-a", limit, 3)
		if err != nil || !d.Allowed || d.Remaining != 0 {
			t.Errorf("the 3 left (the denied 5 took nothing) = %+v, %v; want allowed, none remaining", d, err)
		}
		if d, err := l.Take(ctx, "client-a", limit); err != nil || d.Allowed {
			t.Errorf("one more = %+v, %v; want denied", d, err)
		}
		if _, err := l.TakeN(ctx, "client-b", limit, 11); !errors.Is(err, ratelimit.ErrTooMany) {
			t.Errorf("11 of 10 at once: %v, want ErrTooMany", err)
		}
		if d, err := l.TakeN(ctx, "client-b", limit, 10); err != nil || !d.Allowed || d.Remaining != 0 {
			t.Errorf("the whole quota at once (after ErrTooMany took nothing) = %+v, %v; want allowed", d, err)
		}
		if d, err := l.TakeN(ctx, "client-c", limit, 1); err != nil || !d.Allowed || d.Remaining != 9 {
			t.Errorf("TakeN of 1 = %+v, %v; want as Take", d, err)
		}
	})
	t.Run("disabled", func(t *testing.T) {
		l := newLimiter(t)
		for _, limit := range []ratelimit.Limit{{}, {Window: -1}, {Requests: 5}} {
			if _, err := l.Take(ctx, "client-a", limit); !errors.Is(err, ratelimit.ErrDisabled) {
				t.Errorf("Take with %+v: %v, want ErrDisabled", limit, err)
			}
			if _, err := l.TakeN(ctx, "client-a", limit, 2); !errors.Is(err, ratelimit.ErrDisabled) {
				t.Errorf("TakeN with %+v: %v, want ErrDisabled", limit, err)
			}
		}
	})
}
