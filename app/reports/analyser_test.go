package reports_test

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// gatedFetcher answers every URL with a minimal page once its gate opens.
// Like the real fetcher it asks admit before connecting: twice (the page,
// then robots.txt on a second connection) to the address addrs gives the
// host (default 93.184.215.14).
type gatedFetcher struct {
	gate    chan struct{} // nil: answer at once
	started chan struct{}
	addrs   map[string]string
	mu      sync.Mutex
	urls    []string
}

func (f *gatedFetcher) Fetch(ctx context.Context, rawURL string, admit ports.Admit) (*webpage.Fetched, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	addr, ok := f.addrs[u.Hostname()]
	if !ok {
		addr = "93.184.215.14"
	}
	for range 2 {
		if admit == nil {
			break
		}
		if err := admit(ctx, ports.Target{Host: u.Hostname(), Addr: netip.MustParseAddr(addr)}); err != nil {
			return nil, err
		}
	}
	f.mu.Lock()
	f.urls = append(f.urls, rawURL)
	f.mu.Unlock()
	if f.started != nil {
		f.started <- struct{}{}
	}
	if f.gate != nil {
		select {
		case <-f.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return &webpage.Fetched{RequestedURL: rawURL, Page: webpage.Response{URL: rawURL, Status: 200}}, nil
}

func (f *gatedFetcher) fetched() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.urls)
}

// fixedLimiter is the graph's in-memory limiter on a clock that stands still.
func fixedLimiter() ports.RateLimiter {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return memory.NewRateLimiterWithClock(func() time.Time { return now })
}

// count runs analyses of urls for user 1 and returns how many succeeded and
// the last error.
func count(a *reports.Analyser, urls ...string) (n int, last error) {
	for _, u := range urls {
		if _, err := a.Analyse(context.Background(), 1, u, pagecheck.RenderOff); err != nil {
			last = err
			continue
		}
		n++
	}
	return n, last
}

func TestAnalyserThrottlesPerSite(t *testing.T) {
	f := &gatedFetcher{}
	a := reports.NewAnalyser(f, reports.AnalyserConfig{HostLimit: ratelimit.Limit{Requests: 2, Window: time.Minute},
		UserDaily: reports.NoLimit, Limiter: fixedLimiter()})
	for _, u := range []string{"https://Example.com/a", "http://www.example.com./b"} {
		if _, err := a.Analyse(context.Background(), 1, u, pagecheck.RenderOff); err != nil {
			t.Fatalf("%s: %v", u, err)
		}
	}
	_, err := a.Analyse(context.Background(), 2, "https://shop.example.com/c", pagecheck.RenderOff)
	var te *reports.ThrottledError
	if !errors.As(err, &te) || te.Host != "example.com" || te.RetryAfter() <= 0 || te.RetryAfter() > time.Minute {
		t.Fatalf("third analysis of the site: err = %v", err)
	}
	if h := reports.RetryAfterSeconds(te.RetryAfter()); h != 30 {
		t.Errorf("Retry-After = %d, want 30 (one analysis every 30 s)", h)
	}
	if n := f.fetched(); n != 2 {
		t.Errorf("the throttled analysis fetched anyway: %d fetches", n)
	}
	if _, err := a.Analyse(context.Background(), 1, "https://other.example/", pagecheck.RenderOff); err != nil {
		t.Errorf("another site is throttled too: %v", err)
	}
	// Sites under a public suffix are apart: alice's and bob's pages on
	// github.io, example.co.uk and another.co.uk.
	for _, u := range []string{"https://alice.github.io/", "https://bob.github.io/", "https://a.example.co.uk/", "https://b.another.co.uk/"} {
		if _, err := a.Analyse(context.Background(), 1, u, pagecheck.RenderOff); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
}

// TestAnalyserThrottlesNamesOfOneServer (finding 5): five names of one site
// resolving to one address get the site's quota between them, not five
// times it; distinct sites on one address share that address's (higher)
// quota.
func TestAnalyserThrottlesNamesOfOneServer(t *testing.T) {
	addrs := map[string]string{}
	var names, sites []string
	for i := range 5 {
		h := fmt.Sprintf("n%d.shared.example", i)
		addrs[h] = "198.51.100.7"
		for j := range 5 {
			names = append(names, fmt.Sprintf("http://%s/%d", h, j))
		}
	}
	for i := range 10 {
		h := fmt.Sprintf("site%d.example", i)
		addrs[h] = "203.0.113.9"
		for j := range 5 {
			sites = append(sites, fmt.Sprintf("http://%s/%d", h, j))
		}
	}
	a := reports.NewAnalyser(&gatedFetcher{addrs: addrs}, reports.AnalyserConfig{UserDaily: reports.NoLimit, Limiter: fixedLimiter()})
	n, err := count(a, names...)
	var te *reports.ThrottledError
	if n != reports.DefaultHostLimit.Requests || !errors.As(err, &te) || te.Host != "shared.example" {
		t.Errorf("25 analyses of five names of shared.example: %d admitted (want %d), last error %v", n, reports.DefaultHostLimit.Requests, err)
	}
	n, err = count(a, sites...)
	if n != reports.DefaultAddressLimit.Requests || !errors.As(err, &te) || te.Host != "203.0.113.9" {
		t.Errorf("50 analyses of ten sites on one address: %d admitted (want %d), last error %v", n, reports.DefaultAddressLimit.Requests, err)
	}
}

func TestAnalyserDefaultsAndNoLimit(t *testing.T) {
	a := reports.NewAnalyser(&gatedFetcher{}, reports.AnalyserConfig{Limiter: fixedLimiter()})
	urls := make([]string, 100)
	for i := range urls {
		urls[i] = "https://example.com/"
	}
	if n, _ := count(a, urls...); n != reports.DefaultHostLimit.Requests {
		t.Errorf("default quota allowed %d analyses, want %d", n, reports.DefaultHostLimit.Requests)
	}
	a = reports.NewAnalyser(&gatedFetcher{}, reports.AnalyserConfig{HostLimit: reports.NoLimit, AddressLimit: reports.NoLimit,
		UserDaily: reports.NoLimit, Limiter: fixedLimiter()})
	if n, err := count(a, urls...); n != len(urls) {
		t.Errorf("without limits: %d of %d analyses, last error %v", n, len(urls), err)
	}
	a = reports.NewAnalyser(&gatedFetcher{}, reports.AnalyserConfig{})
	if n, err := count(a, urls...); n != len(urls) {
		t.Errorf("without a limiter: %d of %d analyses, last error %v", n, len(urls), err)
	}
}

// TestAnalyserPoolIsBounded: beyond Workers, ErrBusy at once, and the
// refused analysis uses neither the site's quota nor the user's.
func TestAnalyserPoolIsBounded(t *testing.T) {
	f := &gatedFetcher{gate: make(chan struct{}), started: make(chan struct{}, 1)}
	a := reports.NewAnalyser(f, reports.AnalyserConfig{Workers: 1, HostLimit: ratelimit.Limit{Requests: 2, Window: time.Minute},
		UserDaily: ratelimit.Limit{Requests: 2, Window: 24 * time.Hour}, Limiter: fixedLimiter()})
	done := make(chan error)
	go func() {
		_, err := a.Analyse(context.Background(), 1, "https://example.com/1", pagecheck.RenderOff)
		done <- err
	}()
	<-f.started
	if in, size := a.Saturation(); in != 1 || size != 1 {
		t.Errorf("saturation = %d/%d, want 1/1", in, size)
	}
	if _, err := a.Analyse(context.Background(), 1, "https://example.com/2", pagecheck.RenderOff); !errors.Is(err, reports.ErrBusy) {
		t.Errorf("full pool: err = %v, want ErrBusy", err)
	}
	close(f.gate)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	f.started = nil
	if _, err := a.Analyse(context.Background(), 1, "https://example.com/3", pagecheck.RenderOff); err != nil {
		t.Errorf("the busy refusal used a quota: %v", err)
	}
	if in, _ := a.Saturation(); in != 0 {
		t.Errorf("slots in use after the analyses: %d", in)
	}
}

// TestUserCannotHoldEverySlot (finding 4): one user's slow analyses fill at
// most their own share of the pool; beyond it they get a QuotaError (429),
// and another user still gets a slot.
func TestUserCannotHoldEverySlot(t *testing.T) {
	f := &gatedFetcher{gate: make(chan struct{}), started: make(chan struct{}, 8)}
	a := reports.NewAnalyser(f, reports.AnalyserConfig{Workers: 4, Limiter: fixedLimiter()})
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for i := range reports.DefaultUserConcurrent {
		wg.Go(func() {
			_, err := a.Analyse(context.Background(), 1, fmt.Sprintf("https://slow%d.example/", i), pagecheck.RenderOff)
			errs <- err
		})
		<-f.started
	}
	for i := range 2 {
		// Without a cap this analysis would take a slot and wait at the gate
		// until the context ends (10 s: a refusal is immediate, even on a
		// loaded machine).
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err := a.Analyse(ctx, 1, fmt.Sprintf("https://more%d.example/", i), pagecheck.RenderOff)
		cancel()
		var qe *reports.QuotaError
		if !errors.As(err, &qe) || qe.Daily || qe.Limit != reports.DefaultUserConcurrent || reports.RetryAfterSeconds(qe.RetryAfter()) != 5 {
			t.Errorf("user 1's analysis %d beyond the cap: err = %v, want a QuotaError", 3+i, err)
		}
	}
	wg.Go(func() {
		_, err := a.Analyse(context.Background(), 2, "https://other-user.example/", pagecheck.RenderOff)
		errs <- err
	})
	<-f.started
	if in, _ := a.Saturation(); in != reports.DefaultUserConcurrent+1 {
		t.Errorf("slots in use = %d, want user 1's %d and user 2's", in, reports.DefaultUserConcurrent)
	}
	close(f.gate)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if _, err := a.Analyse(context.Background(), 1, "https://after.example/", pagecheck.RenderOff); err != nil {
		t.Errorf("user 1 after their analyses finished: %v", err)
	}
}

// TestUserDailyQuota (finding 4): each user gets UserDaily analyses, then a
// QuotaError with the time until the quota frees; other users are apart.
func TestUserDailyQuota(t *testing.T) {
	a := reports.NewAnalyser(&gatedFetcher{}, reports.AnalyserConfig{UserDaily: ratelimit.Limit{Requests: 3, Window: 24 * time.Hour},
		HostLimit: reports.NoLimit, AddressLimit: reports.NoLimit, Limiter: fixedLimiter()})
	ctx := context.Background()
	for i := range 3 {
		if _, err := a.Analyse(ctx, 1, "https://example.com/", pagecheck.RenderOff); err != nil {
			t.Fatalf("analysis %d: %v", i+1, err)
		}
	}
	_, err := a.Analyse(ctx, 1, "https://example.com/", pagecheck.RenderOff)
	var qe *reports.QuotaError
	if !errors.As(err, &qe) || !qe.Daily || qe.Limit != 3 || qe.RetryAfter() != 8*time.Hour || reports.RetryAfterSeconds(qe.RetryAfter()) != 28800 {
		t.Errorf("fourth analysis of the day: err = %v, want a daily QuotaError retrying in 8 h", err)
	}
	if _, err := a.Analyse(ctx, 2, "https://example.com/", pagecheck.RenderOff); err != nil {
		t.Errorf("another user: %v", err)
	}
}

// keyLimiter is a ports.RateLimiter that records the keys it is asked for.
type keyLimiter struct {
	keys []string
	err  error
}

func (l *keyLimiter) Take(_ context.Context, key string, limit ratelimit.Limit) (ratelimit.Decision, error) {
	l.keys = append(l.keys, key)
	return ratelimit.Decision{Allowed: true, Limit: limit.Requests}, l.err
}

func (l *keyLimiter) TakeN(ctx context.Context, key string, limit ratelimit.Limit, _ int) (ratelimit.Decision, error) {
	return l.Take(ctx, key, limit)
}

// TestAnalyserUsesTheGivenLimiter: the quotas are kept by the graph's
// limiter, keyed on the user (not the API key), the registrable domain and
// the address; each once per analysis, though the fetcher connects twice.
func TestAnalyserUsesTheGivenLimiter(t *testing.T) {
	l := &keyLimiter{}
	a := reports.NewAnalyser(&gatedFetcher{}, reports.AnalyserConfig{Limiter: l})
	if _, err := a.Analyse(context.Background(), 42, "https://WWW.Example.com:8443/x", pagecheck.RenderOff); err != nil {
		t.Fatal(err)
	}
	want := []string{"analyses-user:42", "analyse-site:example.com", "analyse-addr:93.184.215.14"}
	if fmt.Sprint(l.keys) != fmt.Sprint(want) {
		t.Errorf("keys = %v, want %v", l.keys, want)
	}
	// A failing limiter lets analyses through rather than take them down.
	l = &keyLimiter{err: errors.New("redis: connection refused")}
	a = reports.NewAnalyser(&gatedFetcher{}, reports.AnalyserConfig{Limiter: l})
	if _, err := a.Analyse(context.Background(), 42, "https://example.com/", pagecheck.RenderOff); err != nil {
		t.Errorf("with a failing limiter: %v", err)
	}
}
