package redis

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports"
)

// clock is a fake clock that moves only when told.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Unix(1e9, 0)} }

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// fakeRedis grants leases from one shared GCRA state per key, as the lease
// script does, on the fake clock, recording each request's size.
type fakeRedis struct {
	now     func() time.Time
	release chan struct{} // when set, each request waits for a value on it

	mu          sync.Mutex
	tat         map[string]time.Time
	wants       []int
	fail        error
	inFlight    int
	maxInFlight int
}

func newFakeRedis(now func() time.Time) *fakeRedis {
	return &fakeRedis{now: now, tat: map[string]time.Time{}}
}

func (f *fakeRedis) take(_ context.Context, key string, limit ratelimit.Limit, want int) (grant, error) {
	f.mu.Lock()
	f.wants = append(f.wants, want)
	f.inFlight++
	f.maxInFlight = max(f.maxInFlight, f.inFlight)
	release := f.release
	f.mu.Unlock()
	if release != nil {
		<-release
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.inFlight--
	if f.fail != nil {
		return grant{}, f.fail
	}
	now := f.now()
	for n := want; n >= 1; n-- {
		if d, next, _ := limit.TakeN(f.tat[key], now, n); d.Allowed {
			f.tat[key] = next
			return grant{got: n, reset: d.Reset}, nil
		}
	}
	d, _, _ := limit.Take(f.tat[key], now)
	return grant{retryAfter: d.RetryAfter, reset: d.Reset}, nil
}

func (f *fakeRedis) roundTrips() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.wants)
}

var perMinute600 = ratelimit.Limit{Requests: 600, Window: time.Minute} // one back every 100 ms

func TestLeaseCap(t *testing.T) {
	for _, tt := range []struct {
		limit  ratelimit.Limit
		tokens int
		lasts  time.Duration
	}{
		{perMinute600, 9, 937500 * time.Microsecond},
		{ratelimit.Limit{Requests: 1_000_000_000, Window: time.Minute}, MaxLease, 937500 * time.Microsecond},
		{ratelimit.Limit{Requests: 10, Window: time.Minute}, 0, 937500 * time.Microsecond}, // the auth tier: exact
		{ratelimit.Limit{Requests: 300, Window: 24 * time.Hour}, 0, time.Second},           // a daily quota: exact
		{ratelimit.Limit{Requests: 100, Window: time.Second}, 1, 15625 * time.Microsecond}, // a short window: exact
	} {
		tokens, lasts := leaseCap(tt.limit, DefaultLeaseTime)
		if tokens != tt.tokens || lasts != tt.lasts {
			t.Errorf("leaseCap(%v) = %d tokens for %v, want %d for %v", tt.limit, tokens, lasts, tt.tokens, tt.lasts)
		}
	}
	if tokens, _ := leaseCap(perMinute600, -1); tokens != 0 {
		t.Errorf("leases off: %d tokens", tokens)
	}
}

// TestLeaseAnswersAsTheExactLimiter: one instance, sequential requests:
// the decisions from leases are the exact limiter's, while the round trips
// fall to about one per full lease.
func TestLeaseAnswersAsTheExactLimiter(t *testing.T) {
	c := newClock()
	redis := newFakeRedis(c.now)
	ls := newLeases(c.now, DefaultLeaseTime, redis.take)
	var tat time.Time
	const requests = 700 // the burst, then denials, then refills
	for i := range requests {
		c.advance(3 * time.Millisecond)
		want, next, _ := perMinute600.Take(tat, c.now())
		tat = next
		got, err := ls.Take(context.Background(), "k", perMinute600)
		if err != nil {
			t.Fatal(err)
		}
		if got.Allowed != want.Allowed || got.Remaining != want.Remaining || got.Limit != want.Limit ||
			(got.Reset-want.Reset).Abs() > time.Microsecond || (got.RetryAfter-want.RetryAfter).Abs() > time.Microsecond {
			t.Fatalf("request %d: lease decided %+v, the exact limiter %+v", i, got, want)
		}
	}
	// 1, 2, 4, 8 and 9s for the burst of 600; a denial is asked once per
	// RetryAfter (100 ms: 34 requests).
	if n := redis.roundTrips(); n > 80+(requests-600)/20 {
		t.Errorf("%d requests cost %d round trips", requests, n)
	}
	t.Logf("%d requests, %d round trips, sizes %v...", requests, redis.roundTrips(), redis.wants[:8])
}

// TestLeaseBoundAcrossInstances: three instances in front of one shared
// state, a client over its quota spread over them: admitted requests stay
// within the bound of the package doc, steadily (above and below) and in
// random bursts (above).
func TestLeaseBoundAcrossInstances(t *testing.T) {
	const n = 3
	limit := perMinute600
	bmax, lasts := leaseCap(limit, DefaultLeaseTime)
	interval := limit.Interval()
	over := min(int(lasts/interval), n*(bmax-1))
	// run sends requests at the times and to the instances next gives
	// and returns the times of those admitted, from the start.
	run := func(requests int, next func(i int) (time.Duration, int)) (admitted []time.Duration, elapsed time.Duration, trips int) {
		c := newClock()
		redis := newFakeRedis(c.now)
		var instances [n]*leases
		for i := range instances {
			instances[i] = newLeases(c.now, DefaultLeaseTime, redis.take)
		}
		start := c.now()
		for i := range requests {
			wait, in := next(i)
			c.advance(wait)
			d, err := instances[in].Take(context.Background(), "k", limit)
			if err != nil {
				t.Fatal(err)
			}
			if d.Allowed {
				admitted = append(admitted, c.now().Sub(start))
			}
		}
		return admitted, c.now().Sub(start), redis.roundTrips()
	}
	// worstSpan is the most any span [a, b] admitted beyond what the exact
	// limiter can: Requests + (b-a)/interval + 1.
	worstSpan := func(admitted []time.Duration) float64 {
		worst, best := 0.0, -1e18 // best: max over i of (t_i/interval - i)
		for j, tj := range admitted {
			x := float64(tj) / float64(interval)
			best = max(best, x-float64(j))
			worst = max(worst, float64(j)-x+best+1-float64(limit.Requests))
		}
		return worst
	}

	t.Run("steady", func(t *testing.T) {
		// 1000 requests a second for 200 s, round robin.
		admitted, elapsed, trips := run(200_000, func(i int) (time.Duration, int) { return time.Millisecond, i % n })
		exact := limit.Requests + int(elapsed/interval)
		if len(admitted) > exact+over || len(admitted) < exact-n*(bmax-1) {
			t.Errorf("admitted %d in %v; the exact limiter admits %d, the bound is %d over and %d under", len(admitted), elapsed, exact, over, n*(bmax-1))
		}
		if worst := worstSpan(admitted); worst > float64(over) {
			t.Errorf("some span admitted %.1f more than the exact limiter can; the bound is %d", worst, over)
		}
		t.Logf("%d admitted of an exact %d; %d round trips for 200,000 requests", len(admitted), exact, trips)
	})
	t.Run("held tokens expire", func(t *testing.T) {
		// A warms up to a lease of 9 and keeps 8; B takes all the rest;
		// A spends its own within the lease time, and none after it.
		c := newClock()
		start := c.now()
		redis := newFakeRedis(c.now)
		a, b := newLeases(c.now, DefaultLeaseTime, redis.take), newLeases(c.now, DefaultLeaseTime, redis.take)
		take := func(l *leases, key string) bool {
			d, err := l.Take(context.Background(), key, limit)
			if err != nil {
				t.Fatal(err)
			}
			return d.Allowed
		}
		warm := func(key string) (admitted int) {
			for range 1 + 2 + 4 + 8 + 1 { // leases of 1, 2, 4, 8 and 9
				c.advance(time.Millisecond)
				if take(a, key) {
					admitted++
				}
			}
			for take(b, key) {
				admitted++
			}
			return admitted
		}
		admitted := warm("k")
		c.advance(lasts - 2*time.Millisecond)
		for range bmax - 1 {
			if !take(a, "k") {
				t.Fatal("A was denied a token of its lease within the lease time")
			}
			admitted++
		}
		for take(a, "k") || take(b, "k") {
			admitted++
		}
		exact := limit.Requests + int(c.now().Sub(start)/interval)
		if admitted > exact+over || admitted < exact {
			t.Errorf("admitted %d, the exact limiter %d; the bound is %d over", admitted, exact, over)
		}

		warm("k2")
		c.advance(lasts + time.Millisecond)
		for take(b, "k2") {
		}
		if take(a, "k2") {
			t.Error("A spent a token of its lease after the lease time")
		}
	})
	t.Run("bursts", func(t *testing.T) {
		rnd := rand.New(rand.NewPCG(1, 2))
		admitted, elapsed, trips := run(200_000, func(int) (time.Duration, int) {
			wait := time.Duration(rnd.IntN(200)) * time.Microsecond
			if rnd.IntN(100) == 0 {
				wait = time.Duration(rnd.IntN(2000)) * time.Millisecond // a pause
			}
			return wait, rnd.IntN(n)
		})
		worst := worstSpan(admitted)
		if worst > float64(over) {
			t.Errorf("some span admitted %.1f more than the exact limiter can; the bound is %d", worst, over)
		}
		t.Logf("%d admitted in %v; worst span %.1f over the exact limiter (bound %d); %d round trips", len(admitted), elapsed, worst, over, trips)
	})
}

// TestLeaseSharesOneRoundTrip: requests of one key arriving while a lease
// is asked for wait for it; one request at a time is in flight per key.
func TestLeaseSharesOneRoundTrip(t *testing.T) {
	c := newClock()
	redis := newFakeRedis(c.now)
	redis.release = make(chan struct{})
	ls := newLeases(c.now, DefaultLeaseTime, redis.take)
	limit := ratelimit.Limit{Requests: 1_000_000, Window: time.Minute}
	const requests = 40
	var wg sync.WaitGroup
	errs := make(chan error, requests)
	for range requests {
		wg.Go(func() {
			d, err := ls.Take(context.Background(), "k", limit)
			if err == nil && !d.Allowed {
				err = fmt.Errorf("denied: %+v", d)
			}
			errs <- err
		})
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	for trips := 0; ; trips++ {
		select {
		case redis.release <- struct{}{}:
			continue
		case <-done:
		}
		break
	}
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	// 1 + 2 + 4 + 8 + 16 + 32 >= 40.
	if n := redis.roundTrips(); n > 6 || redis.maxInFlight != 1 {
		t.Errorf("%d concurrent requests: %d round trips (sizes %v), %d at once; want at most 6, one at a time", requests, n, redis.wants, redis.maxInFlight)
	}
}

// TestLeaseFailureAndDenialReachTheWaiters: a failed lease request fails
// the requests waiting on it (so Fallback decides them), a denied one
// denies them, and the next request asks again.
func TestLeaseFailureAndDenialReachTheWaiters(t *testing.T) {
	c := newClock()
	redis := newFakeRedis(c.now)
	ls := newLeases(c.now, DefaultLeaseTime, redis.take)
	limit := ratelimit.Limit{Requests: 1000, Window: time.Second / 10} // leased: 15 tokens per 1.5 ms
	redis.fail = ports.ErrUnavailable
	redis.release = make(chan struct{})
	results := make(chan error, 3)
	for range 3 {
		go func() {
			_, err := ls.Take(context.Background(), "k", limit)
			results <- err
		}()
	}
	waitForRoundTrips(t, redis, 1)
	time.Sleep(50 * time.Millisecond) // the others, most likely, wait for it
	close(redis.release)
	for range 3 {
		if err := <-results; !errors.Is(err, ports.ErrUnavailable) {
			t.Errorf("waiter of a failed lease: %v, want ErrUnavailable", err)
		}
	}
	failed := redis.roundTrips() // 1, unless a request came late and asked again
	redis.mu.Lock()
	redis.fail, redis.release = nil, nil
	redis.tat["k"] = c.now().Add(limit.Span() + time.Millisecond) // spent, one back in 0.1 ms + 1 ms
	redis.mu.Unlock()
	d, err := ls.Take(context.Background(), "k", limit)
	if err != nil || d.Allowed || d.RetryAfter != 1100*time.Microsecond || d.Remaining != 0 {
		t.Errorf("over quota = %+v, %v; want denied, retry after 1.1 ms", d, err)
	}
	c.advance(1100 * time.Microsecond)
	if d, err := ls.Take(context.Background(), "k", limit); err != nil || !d.Allowed {
		t.Errorf("after RetryAfter = %+v, %v; want allowed", d, err)
	}
	if n := redis.roundTrips() - failed; n != 2 {
		t.Errorf("%d round trips after the failure, want 2 (one denied, one allowed)", n)
	}
}

// TestLeaseExpires: tokens left in an expired lease are not spent; the
// next lease asks for what was spent of it, and idle keys are forgotten.
func TestLeaseExpires(t *testing.T) {
	c := newClock()
	redis := newFakeRedis(c.now)
	ls := newLeases(c.now, DefaultLeaseTime, redis.take)
	limit := ratelimit.Limit{Requests: 1_000_000, Window: time.Minute}
	take := func() {
		t.Helper()
		if d, err := ls.Take(context.Background(), "k", limit); err != nil || !d.Allowed {
			t.Fatalf("Take = %+v, %v", d, err)
		}
	}
	for range 1 + 2 + 4 + 8 + 3 { // the fifth lease (16) keeps 13
		take()
	}
	_, lasts := leaseCap(limit, DefaultLeaseTime)
	c.advance(lasts)
	take()
	if got := redis.wants; len(got) != 6 || got[4] != 16 || got[5] != 3 {
		t.Errorf("lease sizes %v, want 1 2 4 8 16, then 3 after 3 of 16 were spent", got)
	}
	c.advance(3 * DefaultLeaseTime)
	if _, err := ls.Take(context.Background(), "other", limit); err != nil {
		t.Fatal(err)
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if _, ok := ls.keys["k"]; ok || len(ls.keys) != 1 {
		t.Errorf("after %v idle the key is still held (%d keys)", 3*DefaultLeaseTime, len(ls.keys))
	}
}

func waitForRoundTrips(t *testing.T, redis *fakeRedis, n int) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); redis.roundTrips() < n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d round trips, want %d", redis.roundTrips(), n)
		}
	}
}
