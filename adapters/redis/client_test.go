package redis_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/redis"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports"
)

var perMinute = ratelimit.Limit{Requests: 10, Window: time.Minute}

func TestOpenRejectsBadURLsWithoutRepeatingThem(t *testing.T) {
	for _, url := range []string{"", "http://localhost:6379", "redis://:s3cret@localhost:6379/x", "redis://:s3cret@local host:6379/0", "redis://localhost/0?pool_size=many"} {
		l, err := redis.Open(redis.Config{URL: url})
		if err == nil {
			l.Close()
			t.Errorf("Open(%q) succeeded, want an error", url)
			continue
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("Open(%q) error %q repeats the password", url, err)
		}
	}
	for _, url := range []string{"redis://localhost:6379/0", "rediss://user:pass@redis.example:6380/2?pool_size=5", "redis://127.0.0.1"} {
		l, err := redis.Open(redis.Config{URL: url})
		if err != nil {
			t.Errorf("Open(%q): %v", url, err)
			continue
		}
		l.Close()
	}
}

func TestDisabledLimitNeedsNoServer(t *testing.T) {
	l := open(t, "redis://127.0.0.1:1/0", 0)
	if _, err := l.Take(context.Background(), "k", ratelimit.Limit{}); !errors.Is(err, ratelimit.ErrDisabled) {
		t.Errorf("Take with a disabled limit: %v, want ErrDisabled", err)
	}
}

// TestUnreachableServerFailsFast: nobody listens, so Take and Ping fail
// at once with ports.ErrUnavailable.
func TestUnreachableServerFailsFast(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	l := open(t, "redis://"+addr+"/0", time.Second)
	if _, err := l.Take(context.Background(), "k", perMinute); !errors.Is(err, ports.ErrUnavailable) {
		t.Errorf("Take: %v, want ErrUnavailable", err)
	}
	if err := l.Ping(context.Background()); !errors.Is(err, ports.ErrUnavailable) {
		t.Errorf("Ping: %v, want ErrUnavailable", err)
	}
}

// TestSilentServerIsBoundedByTheTimeout: a server that accepts connections
// and never answers (a stalled Redis) costs each call its timeout, however
// many calls wait at once (more than the pool holds).
func TestSilentServerIsBoundedByTheTimeout(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	const timeout, pingTimeout = 150 * time.Millisecond, 400 * time.Millisecond
	l, err := redis.Open(redis.Config{URL: "redis://" + ln.Addr().String() + "/0?pool_size=2", Timeout: timeout, PingTimeout: pingTimeout})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	start := time.Now()
	errs := make(chan error)
	for range 8 {
		go func() {
			_, err := l.Take(context.Background(), "k", perMinute)
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; !errors.Is(err, ports.ErrUnavailable) {
			t.Errorf("Take: %v, want ErrUnavailable", err)
		}
	}
	// Generous for a loaded machine; without the bound the calls wait for
	// go-redis's defaults (5 s reads, retried).
	if took := time.Since(start); took > 10*timeout {
		t.Errorf("8 Takes on a silent server took %v, want about %v", took, 2*timeout)
	}
	// Ping has a budget of its own, longer than a Take's, and keeps to it.
	start = time.Now()
	if err := l.Ping(context.Background()); !errors.Is(err, ports.ErrUnavailable) {
		t.Errorf("Ping: %v, want ErrUnavailable", err)
	}
	if took := time.Since(start); took < pingTimeout || took > pingTimeout+10*timeout {
		t.Errorf("Ping on a silent server gave up after %v, want about %v", took, pingTimeout)
	}
}

func open(t *testing.T, url string, timeout time.Duration) *redis.RateLimiter {
	t.Helper()
	l, err := redis.Open(redis.Config{URL: url, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}
