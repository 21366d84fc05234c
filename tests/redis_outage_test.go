package tests

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/adapters/redis"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports"
)

// redisInstance is one Pinsight instance's limiter as serve builds it with
// --redis-url: Redis first, its own memory limiter when Redis fails.
type redisInstance struct {
	*redis.Fallback
	logs *bytes.Buffer // Fallback logs under its lock; read once requests are done
}

func newRedisInstance(t *testing.T, url, prefix string, timeout, retry time.Duration) redisInstance {
	logs := &bytes.Buffer{}
	f := redis.NewFallback(openRedisLimiter(t, url, prefix, timeout), memory.NewRateLimiter(), slog.New(slog.NewTextHandler(logs, nil)))
	f.RetryInterval = retry
	return redisInstance{f, logs}
}

// takeEach sends n requests of key alternately through the instances and
// returns how many were allowed and the slowest decision; any error fails
// the test (a Fallback always decides).
func takeEach(t *testing.T, instances []redisInstance, key string, limit ratelimit.Limit, n int) (allowed int, slowest time.Duration) {
	t.Helper()
	for i := range n {
		start := time.Now()
		d, err := instances[i%len(instances)].Take(context.Background(), key, limit)
		slowest = max(slowest, time.Since(start))
		if err != nil {
			t.Fatalf("request %d of %s: %v; a fallback limiter must always decide", i, key, err)
		}
		if d.Allowed {
			allowed++
		}
	}
	return allowed, slowest
}

// TestRedisOutage stops Redis under two instances: requests are still
// decided, at once, each instance counting on its own and reporting
// degraded; once Redis is back, both share the quota again and report
// healthy, each having logged the outage and the recovery once.
func TestRedisOutage(t *testing.T) {
	c, url := startRedis(t, freePort(t))
	const timeout, retry = 200 * time.Millisecond, 200 * time.Millisecond
	prefix := newPrefix()
	instances := []redisInstance{newRedisInstance(t, url, prefix, timeout, retry), newRedisInstance(t, url, prefix, timeout, retry)}
	limit := ratelimit.Limit{Requests: 4, Window: time.Minute}
	ctx := context.Background()

	if allowed, _ := takeEach(t, instances, "before", limit, 8); allowed != 4 {
		t.Fatalf("Redis up: two instances allowed %d of 8, want the shared quota of 4", allowed)
	}
	stop := 5 * time.Second
	if err := c.Stop(ctx, &stop); err != nil {
		t.Fatal(err)
	}
	allowed, slowest := takeEach(t, instances, "during", limit, 16)
	if allowed != 8 {
		t.Errorf("Redis down: two instances allowed %d of 16, want 4 each (quotas per instance)", allowed)
	}
	// Refused connections fail at once; the bound, ten times the
	// limiter's timeout, allows for a loaded machine's scheduling.
	if slowest > 10*timeout {
		t.Errorf("Redis down: the slowest decision took %v, want at most %v", slowest, 10*timeout)
	}
	for i, in := range instances {
		if degraded, detail := in.Degraded(ctx); !degraded || detail != redis.DegradedDetail {
			t.Errorf("instance %d with Redis down: Degraded = %v, %q", i, degraded, detail)
		}
	}
	t.Logf("Redis stopped: 16 requests decided locally, the slowest in %v", slowest.Round(time.Microsecond))

	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "both instances to use Redis again", 2*time.Minute, func() bool {
		for _, in := range instances {
			if degraded, _ := in.Degraded(ctx); degraded {
				return false
			}
		}
		return true
	})
	if allowed, _ := takeEach(t, instances, "after", limit, 8); allowed != 4 {
		t.Errorf("Redis back: two instances allowed %d of 8, want the shared quota of 4", allowed)
	}
	for i, in := range instances {
		logs := in.logs.String()
		if strings.Count(logs, "level=WARN") != 1 || strings.Count(logs, "level=INFO") != 1 || strings.Count(logs, "\n") != 2 {
			t.Errorf("instance %d logged, want one warning and one recovery line:\n%s", i, logs)
		}
	}
}

// TestRedisStalled freezes Redis (docker pause: connections stay open, the
// kernel accepts new ones, nothing answers) under more concurrent requests
// than the pool holds: each is decided within the limiter's timeout, the
// limiter itself fails with ErrUnavailable in that time, the instance
// reports degraded, and it recovers once Redis wakes up.
func TestRedisStalled(t *testing.T) {
	if testing.Short() {
		t.Skip("pauses a Redis container of its own (-short)")
	}
	c, url := startRedis(t, "")
	const timeout = 200 * time.Millisecond
	limiter := openRedisLimiter(t, url, "", timeout)
	in := redisInstance{redis.NewFallback(limiter, memory.NewRateLimiter(), slog.New(slog.DiscardHandler)), nil}
	in.RetryInterval = 500 * time.Millisecond
	limit := ratelimit.Limit{Requests: 1000, Window: time.Minute}
	ctx := context.Background()
	concurrently := func(n int) (slowest time.Duration, err error) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		for range n {
			wg.Go(func() {
				start := time.Now()
				_, e := in.Take(ctx, "client", limit)
				mu.Lock()
				defer mu.Unlock()
				slowest, err = max(slowest, time.Since(start)), errors.Join(err, e)
			})
		}
		wg.Wait()
		return slowest, err
	}
	if _, err := concurrently(16); err != nil { // also fills the pool with open connections
		t.Fatal(err)
	}

	unpause := pauseContainer(t, c)

	slowest, err := concurrently(40)
	if err != nil {
		t.Errorf("requests with Redis stalled: %v; want every one decided", err)
	}
	// The timeout is the target (logged below); the bound is ten times it,
	// so a loaded machine's scheduling does not fail the test. Unbounded,
	// they would wait for Redis to wake up.
	if limit := 10 * timeout; slowest > limit {
		t.Errorf("with Redis stalled the slowest request took %v, want at most %v", slowest, limit)
	}
	t.Logf("Redis stalled: 40 concurrent requests decided, the slowest in %v (timeout %v)", slowest.Round(time.Millisecond), timeout)
	start := time.Now()
	if _, err := limiter.Take(ctx, "client", limit); !errors.Is(err, ports.ErrUnavailable) {
		t.Errorf("the Redis limiter itself with Redis stalled: %v, want ErrUnavailable", err)
	}
	if took := time.Since(start); took > 10*timeout { // ten times the target, as above
		t.Errorf("the Redis limiter gave up after %v, want about %v (at most %v)", took, timeout, 10*timeout)
	}
	if degraded, _ := in.Degraded(ctx); !degraded {
		t.Error("Redis stalled: Degraded = false")
	}

	unpause()
	waitFor(t, "recovery once Redis answers", 2*time.Minute, func() bool {
		degraded, _ := in.Degraded(ctx)
		return !degraded
	})
	if _, err := limiter.Take(ctx, "client", limit); err != nil {
		t.Errorf("after the stall: %v", err)
	}
}
