package tests

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/adapters/redis"
	"github.com/pinsight/pinsight/domain/ratelimit"
)

// commandStats reads INFO commandstats: calls per command.
func commandStats(t testing.TB, rdb *goredis.Client) map[string]int {
	t.Helper()
	info, err := rdb.Info(context.Background(), "commandstats").Result()
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]int{}
	for line := range strings.SplitSeq(info, "\n") {
		name, stats, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || !strings.HasPrefix(name, "cmdstat_") {
			continue
		}
		for field := range strings.SplitSeq(stats, ",") {
			if v, ok := strings.CutPrefix(field, "calls="); ok {
				calls[strings.TrimPrefix(name, "cmdstat_")], _ = strconv.Atoi(v)
			}
		}
	}
	return calls
}

// TestRedisCommandsPerTake counts what a Take costs Redis, from INFO
// commandstats around a burst through the limiter: one round trip (an
// EVALSHA; EVAL once, to load the script), and inside it TIME, GET and,
// when the request is allowed, SET.
func TestRedisCommandsPerTake(t *testing.T) {
	_, url := startRedis(t, "")
	opt, err := goredis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	admin := goredis.NewClient(opt)
	defer admin.Close()
	ctx := context.Background()
	if err := admin.ConfigResetStat(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	limiter := openRedisLimiter(t, url, "", 0)
	const allowed, denied = 100, 100
	limit := ratelimit.Limit{Requests: allowed, Window: time.Hour}
	for range allowed + denied {
		if _, err := limiter.Take(ctx, "ip:198.51.100.1", limit); err != nil {
			t.Fatal(err)
		}
	}
	calls := commandStats(t, admin)
	var lines []string
	for name, n := range calls {
		lines = append(lines, fmt.Sprintf("%s=%d", name, n))
	}
	sort.Strings(lines)
	t.Logf("%d allowed and %d denied Takes: %s", allowed, denied, strings.Join(lines, " "))
	takes := allowed + denied
	if got := calls["evalsha"] + calls["eval"]; got != takes+1 && got != takes {
		t.Errorf("%d Takes sent %d scripts, want one each (and one EVAL loading it)", takes, got)
	}
	if calls["time"] != takes || calls["get"] != takes || calls["set"] != allowed {
		t.Errorf("inside the script: TIME %d, GET %d, SET %d; want %d, %d, %d", calls["time"], calls["get"], calls["set"], takes, takes, allowed)
	}
	// Connection set-up (HELLO, CLIENT SETNAME, ...) happens once per
	// pooled connection, not per Take.
	if others := sum(calls) - calls["evalsha"] - calls["eval"] - calls["time"] - calls["get"] - calls["set"] - calls["info"] - calls["config|resetstat"]; others > 10 {
		t.Errorf("%d other commands for %d Takes: %v", others, takes, calls)
	}
}

func sum(m map[string]int) (n int) {
	for _, v := range m {
		n += v
	}
	return n
}

// BenchmarkRedisTake measures a Take against a local Redis container (one
// round trip through the published port), or against the Redis that
// PINSIGHT_BENCH_REDIS_URL names: sequential, and from many goroutines over
// the default pool, each on a key of its own, then all on one key (one
// client behind many connections). "exact" sends every Take to Redis (no
// leases, as a limit too small to lease); "leased" answers from leases, as
// serve does for a limit this large, and through redis.Fallback, as serve
// wires it.
//
//	go test ./tests -run '^$' -bench RedisTake -benchtime 3s
func BenchmarkRedisTake(b *testing.B) {
	url := os.Getenv("PINSIGHT_BENCH_REDIS_URL")
	if url == "" {
		_, url = startRedis(b, "")
	}
	limit := ratelimit.Limit{Requests: 1 << 30, Window: time.Hour}
	ctx := context.Background()
	for _, mode := range []struct {
		name      string
		leaseTime time.Duration
	}{{"exact", -1}, {"leased", 0}} {
		l, err := redis.Open(redis.Config{URL: url, Prefix: newPrefix(), Timeout: time.Second, LeaseTime: mode.leaseTime})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { l.Close() })
		limiter := redis.NewFallback(l, memory.NewRateLimiter(), nil)
		b.Run(mode.name+"/sequential", func(b *testing.B) {
			for b.Loop() {
				if _, err := limiter.Take(ctx, "ip:198.51.100.1", limit); err != nil {
					b.Fatal(err)
				}
			}
		})
		for _, keys := range []string{"parallel", "one-key"} {
			b.Run(mode.name+"/"+keys, func(b *testing.B) {
				var ids atomic.Int64
				b.SetParallelism(8)
				b.RunParallel(func(pb *testing.PB) {
					key := "ip:198.51.100.200"
					if keys == "parallel" {
						key = fmt.Sprintf("ip:198.51.100.%d", ids.Add(1))
					}
					for pb.Next() {
						if _, err := limiter.Take(ctx, key, limit); err != nil {
							b.Error(err)
							return
						}
					}
				})
			})
		}
	}
}
