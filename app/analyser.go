package app

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/site"
	"github.com/pinsight/pinsight/ports"
)

// ErrBusy is returned when every analysis slot is taken; transports answer
// 503 with Retry-After.
var ErrBusy = errors.New("app: analysis capacity exhausted, retry shortly")

// BusyRetryAfter is the Retry-After transports send with ErrBusy: analyses
// take seconds, so a slot frees up soon.
const BusyRetryAfter = 5 * time.Second

// ThrottledError is returned when a target host has had its share of
// analyses for now; transports answer 429 with Retry-After.
type ThrottledError struct {
	Host       string
	RetryAfter time.Duration
}

func (e *ThrottledError) Error() string {
	return "app: " + e.Host + " was analysed too often; retry in " + e.RetryAfterHeader() + " s"
}

// RetryAfterHeader is the Retry-After header value of e, in seconds.
func (e *ThrottledError) RetryAfterHeader() string {
	return strconv.Itoa(RetryAfterSeconds(e.RetryAfter))
}

// RetryAfterSeconds rounds d up to whole seconds, at least 1, for a
// Retry-After header.
func RetryAfterSeconds(d time.Duration) int {
	s := int((d + time.Second - 1) / time.Second)
	return max(s, 1)
}

// DefaultHostLimit is how often one target host may be analysed: a few
// times a minute, so the analyser never hammers a third-party site.
var DefaultHostLimit = ratelimit.Limit{Requests: 5, Window: time.Minute}

// AnalyserConfig bounds the analyser.
type AnalyserConfig struct {
	Workers int          // analyses running at once (default 4)
	Weights site.Weights // score weights (default site.DefaultWeights)
	// HostLimit is the quota of analyses per target host; the zero value
	// means DefaultHostLimit, NoHostLimit disables the throttle.
	HostLimit ratelimit.Limit
	// Limiter keeps the per-host quota state; nil keeps it in this process.
	// A shared limiter (the ports.RateLimiter of the graph) makes several
	// instances enforce one quota.
	Limiter ports.RateLimiter
}

// NoHostLimit disables the per-host throttle (tests, private deployments).
var NoHostLimit = ratelimit.Limit{Window: -1}

// Analyser fetches a URL through the PageFetcher and runs the checks, at
// most Workers at a time; beyond that it refuses with ErrBusy rather than
// queueing. Each target host gets at most HostLimit analyses.
type Analyser struct {
	fetcher   ports.PageFetcher
	weights   site.Weights
	slots     chan struct{}
	hostLimit ratelimit.Limit
	limiter   ports.RateLimiter
}

// NewAnalyser returns an analyser over fetcher.
func NewAnalyser(fetcher ports.PageFetcher, cfg AnalyserConfig) *Analyser {
	if cfg.Workers <= 0 {
		cfg.Workers = 4
	}
	if cfg.Weights == nil {
		cfg.Weights = site.DefaultWeights
	}
	if cfg.HostLimit == (ratelimit.Limit{}) {
		cfg.HostLimit = DefaultHostLimit
	}
	if cfg.Limiter == nil {
		cfg.Limiter = &localLimiter{tat: map[string]time.Time{}, now: time.Now}
	}
	return &Analyser{fetcher: fetcher, weights: cfg.Weights, slots: make(chan struct{}, cfg.Workers),
		hostLimit: cfg.HostLimit, limiter: cfg.Limiter}
}

// Analyse fetches rawURL and analyses it. Errors: ErrBusy,
// *ThrottledError, *site.FetchError.
func (a *Analyser) Analyse(ctx context.Context, rawURL string) (site.Analysis, error) {
	select {
	case a.slots <- struct{}{}:
		defer func() { <-a.slots }()
	default:
		return site.Analysis{}, ErrBusy
	}
	if err := a.throttle(ctx, rawURL); err != nil {
		return site.Analysis{}, err
	}
	f, err := a.fetcher.Fetch(ctx, rawURL)
	if err != nil {
		return site.Analysis{}, err
	}
	return site.Analyze(f, a.weights), nil
}

// throttle takes one analysis of rawURL's host from its quota. A URL
// without a host passes: the fetcher refuses it. A failing limiter lets the
// analysis through rather than take the feature down.
func (a *Analyser) throttle(ctx context.Context, rawURL string) error {
	if !a.hostLimit.Enabled() {
		return nil
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.Hostname() == "" {
		return nil
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	d, err := a.limiter.Take(ctx, "analyse-host:"+host, a.hostLimit)
	if err != nil || d.Allowed {
		return nil
	}
	return &ThrottledError{Host: host, RetryAfter: d.RetryAfter}
}

// Saturation reports the slots in use and the pool size (for metrics).
func (a *Analyser) Saturation() (inUse, size int) { return len(a.slots), cap(a.slots) }

// localLimiter keeps per-host quota state in this process, forgetting hosts
// whose quota is whole again.
type localLimiter struct {
	mu    sync.Mutex
	tat   map[string]time.Time
	sweep time.Time
	now   func() time.Time
}

// Take implements ports.RateLimiter.
func (l *localLimiter) Take(_ context.Context, key string, limit ratelimit.Limit) (ratelimit.Decision, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	d, tat, err := limit.Take(l.tat[key], now)
	if err == nil {
		l.tat[key] = tat
	}
	if now.Sub(l.sweep) > time.Minute {
		for k, t := range l.tat {
			if !t.After(now) {
				delete(l.tat, k)
			}
		}
		l.sweep = now
	}
	return d, err
}
