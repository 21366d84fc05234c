package porttest

import (
	"context"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports"
)

// TestQuotaReturner checks the GiveBack of a RateLimiter that is a
// ports.QuotaReturner against ratelimit.Limit.GiveBack: what returns fits
// again, once per receipt, never past the charge's end nor beyond a whole
// quota. newLimiter must return a limiter with no recorded requests.
func TestQuotaReturner(t *testing.T, newLimiter func(t *testing.T) ports.RateLimiter) {
	ctx := context.Background()
	day := ratelimit.Limit{Requests: 240, Window: 24 * time.Hour} // one back every 6 minutes
	l := newLimiter(t)
	r, ok := l.(ports.QuotaReturner)
	if !ok {
		t.Fatalf("%T is not a ports.QuotaReturner", l)
	}
	take := func(key string, n int) ratelimit.Decision {
		t.Helper()
		d, err := l.TakeN(ctx, key, day, n)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	give := func(key string, n int, until time.Time, receipt string) int {
		t.Helper()
		got, err := r.GiveBack(ctx, key, day, n, until, receipt)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	d := take("user:1", 100)
	until := time.Now().Add(d.Reset)
	if got := give("user:1", 60, until, "crawl:1"); got != 60 {
		t.Fatalf("GiveBack of 60 unused = %d", got)
	}
	if got := give("user:1", 60, until, "crawl:1"); got != 0 {
		t.Fatalf("GiveBack with the same receipt again = %d, want 0", got)
	}
	if d := take("user:1", 200); !d.Allowed {
		t.Fatalf("after 60 of 100 back, 200 of 240 do not fit: %+v", d)
	}
	if d := take("user:1", 1); d.Allowed {
		t.Fatalf("the 241st request fits: %+v", d)
	}
	if got := give("user:1", 60, time.Now().Add(-time.Second), "crawl:2"); got != 0 {
		t.Errorf("GiveBack of a charge all back already = %d, want 0", got)
	}

	d = take("user:2", 5)
	if got := give("user:2", 60, time.Now().Add(day.Window), "crawl:3"); got != 5 {
		t.Errorf("GiveBack of 60 owing 5 = %d, want 5", got)
	}
	if d := take("user:2", 240); !d.Allowed {
		t.Errorf("the quota is not whole after all came back: %+v", d)
	}
	if got := give("user:3", 10, time.Now().Add(time.Hour), "crawl:4"); got != 0 {
		t.Errorf("GiveBack to an unused quota = %d, want 0", got)
	}
}
