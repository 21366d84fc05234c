package porttest

import (
	"context"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports"
)

// TestRateLimiter checks a RateLimiter on a quota small enough to exhaust.
// newLimiter must return a limiter with no recorded requests.
func TestRateLimiter(t *testing.T, newLimiter func(t *testing.T) ports.RateLimiter) {
	ctx := context.Background()
	l := newLimiter(t)
	limit := ratelimit.Limit{Requests: 3, Window: time.Hour}
	for i := range 3 {
		d, err := l.Take(ctx, "client-a", limit)
		if err != nil || !d.Allowed || d.Remaining != 2-i || d.Limit != 3 {
			t.Fatalf("request %d = %+v, %v", i, d, err)
		}
	}
	d, err := l.Take(ctx, "client-a", limit)
	if err != nil || d.Allowed || d.RetryAfter <= 0 {
		t.Errorf("over quota = %+v, %v; want denied with RetryAfter", d, err)
	}
	if d, err := l.Take(ctx, "client-b", limit); err != nil || !d.Allowed {
		t.Errorf("another key = %+v, %v; want allowed", d, err)
	}
}
