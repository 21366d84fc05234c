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
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"

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
	opts := []testcontainers.ContainerCustomizer{
		testcontainers.WithExposedPorts("6379/tcp"),
		testcontainers.WithWaitStrategy(
			wait.ForLog("Ready to accept connections").WithStartupTimeout(time.Minute),
			wait.ForListeningPort("6379/tcp")),
	}
	if hostPort != "" {
		opts = append(opts, testcontainers.WithHostConfigModifier(func(hc *container.HostConfig) {
			hc.PortBindings = network.PortMap{network.MustParsePort("6379/tcp"): {{HostIP: netip.MustParseAddr("127.0.0.1"), HostPort: hostPort}}}
		}))
	}
	c, err := testcontainers.Run(ctx, image, opts...)
	testcontainers.CleanupContainer(tb, c)
	if err != nil {
		tb.Fatalf("start %s: %v", image, err)
	}
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
