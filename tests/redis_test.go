package tests

import (
	"context"
	"fmt"
	"net/netip"
	"sync/atomic"
	"testing"
	"time"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	goredis "github.com/redis/go-redis/v9"
	"github.com/testcontainers/testcontainers-go"

	"github.com/pinsight/pinsight/adapters/redis"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

// startRedis starts a Redis container of its own for one test or benchmark
// (removed at its end) and returns it with its URL. With a hostPort, Redis
// is published there, so the URL survives a stop and start.
func startRedis(tb testing.TB, hostPort string) (*testcontainers.DockerContainer, string) {
	tb.Helper()
	image := redisImage.image(tb)
	ctx := context.Background()
	opts := []testcontainers.ContainerCustomizer{testcontainers.WithExposedPorts("6379/tcp")}
	if hostPort != "" {
		opts = append(opts, testcontainers.WithHostConfigModifier(func(hc *container.HostConfig) {
			hc.PortBindings = network.PortMap{network.MustParsePort("6379/tcp"): {{HostIP: netip.MustParseAddr("127.0.0.1"), HostPort: hostPort}}}
		}))
	}
	c := runContainer(tb, testcontainers.Run, image, redisReady(), opts...)
	endpoint, err := c.PortEndpoint(ctx, "6379/tcp", "")
	if err != nil {
		tb.Fatal(err)
	}
	return c, "redis://" + endpoint + "/0"
}

// openRedisLimiter opens a limiter on url with the given key prefix
// ("": a prefix of its own, shared with no other limiter of the test).
func openRedisLimiter(tb testing.TB, url, prefix string, timeout time.Duration) *redis.RateLimiter {
	tb.Helper()
	if prefix == "" {
		prefix = newPrefix()
	}
	l, err := redis.Open(redis.Config{URL: url, Prefix: prefix, Timeout: timeout})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { l.Close() })
	return l
}

var prefixes atomic.Int64

// newPrefix returns a key prefix no other limiter of the binary uses.
func newPrefix() string { return fmt.Sprintf("test%d:", prefixes.Add(1)) }

func TestRedisRateLimiter(t *testing.T) {
	_, url := startRedis(t, "")
	porttest.TestRateLimiter(t, func(t *testing.T) ports.RateLimiter {
		return openRedisLimiter(t, url, "", 0)
	})
}

func TestRedisQuotaReturner(t *testing.T) {
	_, url := startRedis(t, "")
	porttest.TestQuotaReturner(t, func(t *testing.T) ports.RateLimiter {
		return openRedisLimiter(t, url, "", 0)
	})
}

func TestRedisTurnTaker(t *testing.T) {
	_, url := startRedis(t, "")
	porttest.TestTurnTaker(t, func(t *testing.T) ports.RateLimiter {
		return openRedisLimiter(t, url, "", 0)
	})
}

// TestRedisSharedTurns: the turns of a key are the fleet's: Alice, asking
// through one instance, is ahead of Bob asking through another.
func TestRedisSharedTurns(t *testing.T) {
	_, url := startRedis(t, "")
	prefix := newPrefix()
	a, b := openRedisLimiter(t, url, prefix, 0), openRedisLimiter(t, url, prefix, 0)
	ctx := context.Background()
	hour := ratelimit.Limit{Requests: 1, Window: time.Hour}
	if d, err := b.TakeTurn(ctx, "analyse-addr:203.0.113.7", "bob", hour); err != nil || !d.Allowed {
		t.Fatalf("Bob's first = %+v, %v", d, err)
	}
	if d, err := a.TakeTurn(ctx, "analyse-addr:203.0.113.7", "alice", hour); err != nil || d.Allowed || d.RetryAfter > time.Hour {
		t.Fatalf("Alice on the other instance = %+v, %v; want denied until the next request", d, err)
	}
	if d, err := b.TakeTurn(ctx, "analyse-addr:203.0.113.7", "bob", hour); err != nil || d.Allowed || d.RetryAfter < 119*time.Minute {
		t.Errorf("Bob behind Alice = %+v, %v; want denied for about 2 h (the request after hers)", d, err)
	}
}

// TestRedisSharedQuota: two instances' limiters on one Redis enforce one
// quota: the sum of their requests, not twice it.
func TestRedisSharedQuota(t *testing.T) {
	_, url := startRedis(t, "")
	prefix := newPrefix()
	instances := []ports.RateLimiter{openRedisLimiter(t, url, prefix, 0), openRedisLimiter(t, url, prefix, 0)}
	limit := ratelimit.Limit{Requests: 10, Window: time.Minute}
	allowed := 0
	for i := range 30 {
		d, err := instances[i%2].Take(context.Background(), "ip:203.0.113.7", limit)
		if err != nil {
			t.Fatal(err)
		}
		if d.Allowed {
			allowed++
		}
	}
	if allowed != 10 {
		t.Errorf("two instances allowed %d of 30 requests, want the quota: 10", allowed)
	}
}

// TestRedisLeases: a limit large enough to lease, taken through two
// instances: together they admit the quota (plus what came back meanwhile,
// within the bound of package redis), and Redis sees a small fraction of
// the requests.
func TestRedisLeases(t *testing.T) {
	_, url := startRedis(t, "")
	opt, err := goredis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	admin := goredis.NewClient(opt)
	defer admin.Close()
	ctx := context.Background()
	prefix := newPrefix()
	instances := []ports.RateLimiter{openRedisLimiter(t, url, prefix, time.Second), openRedisLimiter(t, url, prefix, time.Second)}
	limit := ratelimit.Limit{Requests: 6000, Window: time.Minute} // one back every 10 ms; leases of up to 93
	if err := admin.ConfigResetStat(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	const takes = 3 * 6000
	allowed, start := 0, time.Now()
	for i := range takes {
		d, err := instances[i%2].Take(ctx, "ip:203.0.113.8", limit)
		if err != nil {
			t.Fatal(err)
		}
		if d.Allowed {
			allowed++
		}
	}
	elapsed := time.Since(start)
	// Leases last 937.5 ms (1/64 of the span): at most 93 tokens over.
	refilled := int(elapsed / limit.Interval())
	if allowed < limit.Requests || allowed > limit.Requests+refilled+93 {
		t.Errorf("two instances allowed %d of %d in %v; want %d, plus up to %d come back, plus at most 93", allowed, takes, elapsed, limit.Requests, refilled)
	}
	calls := commandStats(t, admin)
	scripts := calls["evalsha"] + calls["eval"]
	if scripts > takes/10 {
		t.Errorf("%d Takes sent %d scripts, want at most a tenth", takes, scripts)
	}
	t.Logf("%d Takes in %v: %d allowed, %d scripts (%v)", takes, elapsed.Round(time.Millisecond), allowed, scripts, calls)
}
