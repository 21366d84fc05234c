package porttest

import (
	"context"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports"
)

// TestTurnTaker checks the TakeTurn of a RateLimiter that is a
// ports.TurnTaker against ratelimit.Limit.TakeTurn: one quota per key,
// shared with Take; a free request goes to the waiting party granted
// longest ago, so a party asking once is served next, before another's
// backlog. newLimiter must return a limiter with no recorded requests.
func TestTurnTaker(t *testing.T, newLimiter func(t *testing.T) ports.RateLimiter) {
	ctx := context.Background()
	l := newLimiter(t)
	tt, ok := l.(ports.TurnTaker)
	if !ok {
		t.Fatalf("%T is not a ports.TurnTaker", l)
	}
	take := func(key, party string, limit ratelimit.Limit) ratelimit.Decision {
		t.Helper()
		d, err := tt.TakeTurn(ctx, key, party, limit)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	t.Run("quota and order", func(t *testing.T) {
		hour := ratelimit.Limit{Requests: 2, Window: time.Hour} // one back every 30 min
		for i := range 2 {
			if d := take("site-a", "bob", hour); !d.Allowed || d.Remaining != 1-i {
				t.Fatalf("Bob's request %d = %+v, want allowed, %d left", i, d, 1-i)
			}
		}
		if d := take("site-a", "bob", hour); d.Allowed || d.RetryAfter < 29*time.Minute || d.RetryAfter > 30*time.Minute {
			t.Fatalf("Bob over the quota = %+v, want denied for about 30 min", d)
		}
		// Alice, never granted, is ahead of Bob: the next request is hers,
		// Bob's the one after.
		if d := take("site-a", "alice", hour); d.Allowed || d.RetryAfter < 29*time.Minute || d.RetryAfter > 30*time.Minute {
			t.Errorf("Alice = %+v, want denied for about 30 min (the next request)", d)
		}
		if d := take("site-a", "bob", hour); d.Allowed || d.RetryAfter < 59*time.Minute || d.RetryAfter > time.Hour {
			t.Errorf("Bob behind Alice = %+v, want denied for about an hour (the request after hers)", d)
		}
		if d, err := l.Take(ctx, "site-a", hour); err != nil || d.Allowed {
			t.Errorf("Take of the key = %+v, %v; want denied: one quota", d, err)
		}
		if d := take("site-b", "bob", hour); !d.Allowed {
			t.Errorf("another key = %+v, want allowed", d)
		}
	})
	t.Run("the next free request is the waiting party's", func(t *testing.T) {
		limit := ratelimit.Limit{Requests: 1, Window: 300 * time.Millisecond}
		if d := take("site-c", "bob", limit); !d.Allowed {
			t.Fatalf("Bob's first = %+v", d)
		}
		d := take("site-c", "alice", limit)
		if d.Allowed || d.RetryAfter <= 0 || d.RetryAfter > 300*time.Millisecond {
			t.Fatalf("Alice = %+v, want denied up to 300 ms", d)
		}
		time.Sleep(d.RetryAfter + 20*time.Millisecond)
		if d := take("site-c", "bob", limit); d.Allowed {
			t.Errorf("Bob, asking first when the request is free = %+v, want denied: Alice's turn", d)
		}
		if d := take("site-c", "alice", limit); !d.Allowed {
			t.Fatalf("Alice at her turn = %+v, want allowed", d)
		}
		time.Sleep(limit.Interval() + 20*time.Millisecond)
		if d := take("site-c", "bob", limit); !d.Allowed {
			t.Errorf("Bob, alone again = %+v, want allowed", d)
		}
	})
}
