package redis_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/redis"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports"
)

// switchable is a limiter that fails while down, counting its calls; its
// decisions carry Limit = mark, so a test sees who decided.
type switchable struct {
	mark   int
	down   atomic.Bool
	calls  atomic.Int32 // Take and TakeN
	takeNs atomic.Int32
	pings  atomic.Int32
}

func (s *switchable) Take(_ context.Context, _ string, limit ratelimit.Limit) (ratelimit.Decision, error) {
	s.calls.Add(1)
	if !limit.Enabled() {
		return ratelimit.Decision{}, ratelimit.ErrDisabled
	}
	if s.down.Load() {
		return ratelimit.Decision{}, ports.ErrUnavailable
	}
	return ratelimit.Decision{Allowed: true, Limit: s.mark}, nil
}

func (s *switchable) TakeN(ctx context.Context, key string, limit ratelimit.Limit, _ int) (ratelimit.Decision, error) {
	s.takeNs.Add(1)
	return s.Take(ctx, key, limit)
}

func (s *switchable) Ping(context.Context) error {
	s.pings.Add(1)
	if s.down.Load() {
		return ports.ErrUnavailable
	}
	return nil
}

// newFallback returns a Fallback over two switchables, logging to a buffer
// that the test reads once its requests are done (Fallback logs under its
// lock, so concurrent requests never write it at once).
func newFallback(retry time.Duration) (*redis.Fallback, *switchable, *switchable, *bytes.Buffer) {
	primary, secondary := &switchable{mark: 1}, &switchable{mark: 2}
	logs := &bytes.Buffer{}
	f := redis.NewFallback(primary, secondary, slog.New(slog.NewTextHandler(logs, nil)))
	f.RetryInterval = retry
	return f, primary, secondary, logs
}

// decider takes one request and says who decided it (1 primary, 2
// secondary), failing on any error.
func decider(t *testing.T, f *redis.Fallback) func() int {
	return func() int {
		t.Helper()
		d, err := f.Take(context.Background(), "k", perMinute)
		if err != nil || !d.Allowed {
			t.Fatalf("Take = %+v, %v; want a decision", d, err)
		}
		return d.Limit
	}
}

func TestFallbackOutageAndRecovery(t *testing.T) {
	const retry = 50 * time.Millisecond
	f, primary, _, logs := newFallback(retry)
	take := decider(t, f)
	ctx := context.Background()
	if got := take(); got != 1 {
		t.Fatalf("healthy: decided by %d, want the primary", got)
	}
	if degraded, _ := f.Degraded(ctx); degraded {
		t.Fatal("healthy: Degraded = true")
	}

	primary.down.Store(true)
	var wg sync.WaitGroup
	for range 50 { // concurrent requests during the outage
		wg.Go(func() {
			if got := take(); got != 2 {
				t.Errorf("during the outage: decided by %d, want the secondary", got)
			}
		})
	}
	wg.Wait()
	if n := primary.calls.Load(); n > 1+50 {
		t.Errorf("the primary was called %d times", n)
	}
	before := primary.calls.Load()
	for range 100 {
		take()
	}
	if n := primary.calls.Load() - before; n != 0 {
		t.Errorf("within the retry interval the failed primary was called %d times, want 0", n)
	}
	degraded, detail := f.Degraded(ctx)
	if !degraded || detail != redis.DegradedDetail {
		t.Errorf("during the outage: Degraded = %v, %q", degraded, detail)
	}

	// Still down after the interval: one try, then the secondary again.
	time.Sleep(retry + 10*time.Millisecond)
	before = primary.calls.Load()
	for range 10 {
		take()
	}
	if n := primary.calls.Load() - before; n != 1 {
		t.Errorf("after the retry interval the primary was tried %d times, want once", n)
	}

	primary.down.Store(false)
	time.Sleep(retry + 10*time.Millisecond)
	if got := take(); got != 1 {
		t.Errorf("after recovery: decided by %d, want the primary", got)
	}
	if got := take(); got != 1 {
		t.Errorf("after recovery: decided by %d, want the primary", got)
	}
	if degraded, _ := f.Degraded(ctx); degraded {
		t.Error("after recovery: Degraded = true")
	}
	out := logs.String()
	if strings.Count(out, "level=WARN") != 1 || strings.Count(out, "level=INFO") != 1 || strings.Count(out, "\n") != 2 {
		t.Errorf("want one warning for the outage and one line for the recovery, got:\n%s", out)
	}
}

// TestFallbackDegradedProbes: with no traffic, the readiness check itself
// notices an outage and, after the retry interval, a recovery.
func TestFallbackDegradedProbes(t *testing.T) {
	const retry = 30 * time.Millisecond
	f, primary, _, _ := newFallback(retry)
	ctx := context.Background()
	primary.down.Store(true)
	if degraded, _ := f.Degraded(ctx); !degraded {
		t.Fatal("Redis down, no traffic: Degraded = false")
	}
	primary.down.Store(false)
	pings := primary.pings.Load()
	if degraded, _ := f.Degraded(ctx); !degraded || primary.pings.Load() != pings {
		t.Error("within the retry interval Degraded pinged or changed its answer")
	}
	time.Sleep(retry + 10*time.Millisecond)
	if degraded, _ := f.Degraded(ctx); degraded {
		t.Error("Redis back, retry interval passed: Degraded = true")
	}
}

// TestFallbackCallerGone: a request cancelled by its client fails on the
// primary without marking it down.
func TestFallbackCallerGone(t *testing.T) {
	f, primary, _, logs := newFallback(time.Hour)
	primary.down.Store(true)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.Take(ctx, "k", perMinute); err != nil {
		t.Fatalf("Take: %v", err)
	}
	primary.down.Store(false)
	if d, _ := f.Take(context.Background(), "k", perMinute); d.Limit != 1 {
		t.Errorf("after a cancelled request the primary was skipped (decided by %d)", d.Limit)
	}
	if logs.String() != "" {
		t.Errorf("a cancelled request was logged as an outage:\n%s", logs)
	}
}

func TestFallbackPassesDisabled(t *testing.T) {
	f, primary, secondary, _ := newFallback(time.Hour)
	if _, err := f.Take(context.Background(), "k", ratelimit.Limit{}); !errors.Is(err, ratelimit.ErrDisabled) {
		t.Errorf("disabled limit: %v, want ErrDisabled", err)
	}
	if primary.calls.Load() != 1 || secondary.calls.Load() != 0 {
		t.Errorf("disabled limit: primary %d calls, secondary %d; want the primary's answer", primary.calls.Load(), secondary.calls.Load())
	}
	if degraded, _ := f.Degraded(context.Background()); degraded {
		t.Error("a disabled limit marked the primary down")
	}
}

// TestFallbackKeepsTakeAndTakeN: a Take reaches the limiters' Take (the
// Redis limiter answers it from a lease), a TakeN their TakeN.
func TestFallbackKeepsTakeAndTakeN(t *testing.T) {
	f, primary, secondary, _ := newFallback(time.Hour)
	ctx := context.Background()
	if _, err := f.Take(ctx, "k", perMinute); err != nil || primary.calls.Load() != 1 || primary.takeNs.Load() != 0 {
		t.Errorf("Take: %v; the primary's TakeN was called %d times of %d", err, primary.takeNs.Load(), primary.calls.Load())
	}
	if _, err := f.TakeN(ctx, "k", perMinute, 2); err != nil || primary.takeNs.Load() != 1 {
		t.Errorf("TakeN: %v; the primary's TakeN was called %d times", err, primary.takeNs.Load())
	}
	primary.down.Store(true)
	if _, err := f.Take(ctx, "k", perMinute); err != nil {
		t.Fatal(err)
	}
	if secondary.calls.Load() != 1 || secondary.takeNs.Load() != 0 {
		t.Errorf("Take with the primary down: the secondary's TakeN was called %d times of %d", secondary.takeNs.Load(), secondary.calls.Load())
	}
}

// turnTaking is a switchable that takes turns, counting them.
type turnTaking struct {
	switchable
	turns atomic.Int32
}

func (s *turnTaking) TakeTurn(ctx context.Context, key, _ string, limit ratelimit.Limit) (ratelimit.Decision, error) {
	s.turns.Add(1)
	return s.Take(ctx, key, limit)
}

// TestFallbackTakesTurns: TakeTurn goes to the Primary's TakeTurn while it
// answers, to the Secondary's when it fails; a limiter taking no turns
// answers with Take.
func TestFallbackTakesTurns(t *testing.T) {
	ctx := context.Background()
	limit := ratelimit.Limit{Requests: 5, Window: time.Minute}
	primary, secondary := &turnTaking{switchable: switchable{mark: 1}}, &turnTaking{switchable: switchable{mark: 2}}
	f := redis.NewFallback(primary, secondary, slog.New(slog.DiscardHandler))
	if d, err := f.TakeTurn(ctx, "k", "alice", limit); err != nil || d.Limit != 1 || primary.turns.Load() != 1 {
		t.Fatalf("healthy = %+v, %v (primary turns %d); want the Primary's turn", d, err, primary.turns.Load())
	}
	primary.down.Store(true)
	if d, err := f.TakeTurn(ctx, "k", "alice", limit); err != nil || d.Limit != 2 || secondary.turns.Load() != 1 {
		t.Fatalf("Primary down = %+v, %v (secondary turns %d); want the Secondary's turn", d, err, secondary.turns.Load())
	}
	plain := redis.NewFallback(&switchable{mark: 1}, &switchable{mark: 2}, slog.New(slog.DiscardHandler))
	if d, err := plain.TakeTurn(ctx, "k", "alice", limit); err != nil || d.Limit != 1 {
		t.Errorf("no turns = %+v, %v; want the Primary's Take", d, err)
	}
}
