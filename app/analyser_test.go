package app_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/app"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/site"
)

// gatedFetcher answers every URL with a minimal page once its gate opens.
type gatedFetcher struct {
	gate    chan struct{} // nil: answer at once
	started chan struct{}
	mu      sync.Mutex
	urls    []string
}

func (f *gatedFetcher) Fetch(ctx context.Context, rawURL string) (*site.Fetched, error) {
	f.mu.Lock()
	f.urls = append(f.urls, rawURL)
	f.mu.Unlock()
	if f.started != nil {
		f.started <- struct{}{}
	}
	if f.gate != nil {
		<-f.gate
	}
	return &site.Fetched{RequestedURL: rawURL, Page: site.Response{URL: rawURL, Status: 200}}, nil
}

func TestAnalyserThrottlesPerHost(t *testing.T) {
	f := &gatedFetcher{}
	a := app.NewAnalyser(f, app.AnalyserConfig{HostLimit: ratelimit.Limit{Requests: 2, Window: time.Minute}})
	ctx := context.Background()
	for _, u := range []string{"https://Example.com/a", "http://example.com./b"} {
		if _, err := a.Analyse(ctx, u); err != nil {
			t.Fatalf("%s: %v", u, err)
		}
	}
	_, err := a.Analyse(ctx, "https://example.com/c")
	var te *app.ThrottledError
	if !errors.As(err, &te) || te.Host != "example.com" || te.RetryAfter <= 0 || te.RetryAfter > time.Minute {
		t.Fatalf("third analysis of the host: err = %v", err)
	}
	if h := te.RetryAfterHeader(); h != "30" {
		t.Errorf("Retry-After = %s, want 30 (one analysis every 30 s)", h)
	}
	if len(f.urls) != 2 {
		t.Errorf("the throttled analysis fetched anyway: %v", f.urls)
	}
	if _, err := a.Analyse(ctx, "https://other.example/"); err != nil {
		t.Errorf("another host is throttled too: %v", err)
	}
}

func TestAnalyserDefaultsAndNoHostLimit(t *testing.T) {
	ctx := context.Background()
	a := app.NewAnalyser(&gatedFetcher{}, app.AnalyserConfig{})
	var err error
	n := 0
	for ; err == nil && n < 100; n++ {
		_, err = a.Analyse(ctx, "https://example.com/")
	}
	if n-1 != app.DefaultHostLimit.Requests {
		t.Errorf("default quota allowed %d analyses, want %d", n-1, app.DefaultHostLimit.Requests)
	}
	a = app.NewAnalyser(&gatedFetcher{}, app.AnalyserConfig{HostLimit: app.NoHostLimit})
	for i := 0; i < 20; i++ {
		if _, err := a.Analyse(ctx, "https://example.com/"); err != nil {
			t.Fatalf("analysis %d without a host limit: %v", i, err)
		}
	}
}

// TestAnalyserPoolIsBounded: beyond Workers, ErrBusy at once, and the
// refused analysis does not use the host's quota.
func TestAnalyserPoolIsBounded(t *testing.T) {
	f := &gatedFetcher{gate: make(chan struct{}), started: make(chan struct{}, 1)}
	a := app.NewAnalyser(f, app.AnalyserConfig{Workers: 1, HostLimit: ratelimit.Limit{Requests: 2, Window: time.Minute}})
	done := make(chan error)
	go func() {
		_, err := a.Analyse(context.Background(), "https://example.com/1")
		done <- err
	}()
	<-f.started
	if in, size := a.Saturation(); in != 1 || size != 1 {
		t.Errorf("saturation = %d/%d, want 1/1", in, size)
	}
	if _, err := a.Analyse(context.Background(), "https://example.com/2"); !errors.Is(err, app.ErrBusy) {
		t.Errorf("full pool: err = %v, want ErrBusy", err)
	}
	close(f.gate)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	f.started = nil
	if _, err := a.Analyse(context.Background(), "https://example.com/3"); err != nil {
		t.Errorf("the busy refusal used the quota: %v", err)
	}
	if in, _ := a.Saturation(); in != 0 {
		t.Errorf("slots in use after the analyses: %d", in)
	}
}

// keyLimiter is a ports.RateLimiter that records the keys it is asked for.
type keyLimiter struct{ keys []string }

func (l *keyLimiter) Take(_ context.Context, key string, limit ratelimit.Limit) (ratelimit.Decision, error) {
	l.keys = append(l.keys, key)
	return ratelimit.Decision{Allowed: true, Limit: limit.Requests}, nil
}

func TestAnalyserUsesTheGivenLimiter(t *testing.T) {
	l := &keyLimiter{}
	a := app.NewAnalyser(&gatedFetcher{}, app.AnalyserConfig{Limiter: l})
	if _, err := a.Analyse(context.Background(), "https://WWW.Example.com:8443/x"); err != nil {
		t.Fatal(err)
	}
	if len(l.keys) != 1 || l.keys[0] != "analyse-host:www.example.com" {
		t.Errorf("keys = %v", l.keys)
	}
}
