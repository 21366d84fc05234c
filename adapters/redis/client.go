// Package redis keeps shared rate-limit state in Redis, so several Pinsight
// instances enforce one quota: a ports.RateLimiter on go-redis and
// redis_rate (the same GCRA as domain/ratelimit, run as one Lua script per
// request), and Fallback, which serves from an in-process limiter while
// Redis cannot answer.
package redis

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"runtime"
	"sync"
	"time"

	"github.com/go-redis/redis_rate/v10"
	goredis "github.com/redis/go-redis/v9"

	"github.com/pinsight/pinsight/ports"
)

// Defaults of Config.
const (
	DefaultPrefix  = "pinsight:"
	DefaultTimeout = 200 * time.Millisecond
)

// Config holds the connection settings.
type Config struct {
	// URL is redis://[user:password@]host:port/db, or rediss:// for TLS.
	// go-redis's query parameters (pool_size, dial_timeout, read_timeout,
	// max_retries, ...) are honoured and win over the defaults below.
	URL string
	// Prefix namespaces the keys (default DefaultPrefix), so instances of
	// separate deployments can share one Redis. redis_rate adds its own
	// "rate:" in front: a client key k is stored as "rate:" + Prefix + k.
	Prefix string
	// Timeout bounds one call (Take or Ping) as a whole: the wait for a
	// pooled connection, a dial, writing and reading the answer (default
	// DefaultTimeout). A stalled Redis therefore delays a request by at
	// most Timeout, and Fallback skips it for a while after that.
	Timeout time.Duration
	// PoolSize is the most connections open at once (default 10 per
	// GOMAXPROCS, go-redis's own default). A Take holds one for a single
	// round trip; a call finding none free within Timeout fails like an
	// unreachable Redis, so the pool must cover the request rate times the
	// round trip (10k requests/s at 0.2 ms keep 2 connections busy).
	PoolSize int
}

// RateLimiter is a ports.RateLimiter whose state lives in Redis.
type RateLimiter struct {
	client  *goredis.Client
	limiter *redis_rate.Limiter
	prefix  string
	timeout time.Duration
}

// Open checks the configuration and returns a limiter. Like sql.Open, it
// does not connect: an instance starts while Redis is down, its Takes fail
// (Fallback serves them locally) until Redis answers, and Ping tells.
//
// go-redis logs each failed dial through one logger for the whole process;
// Open sends those lines to slog.Default at debug level (Fallback logs the
// outage once, at warning).
func Open(cfg Config) (*RateLimiter, error) {
	quietLibraryLog.Do(func() { goredis.SetLogger(debugLog{}) })
	cfg = cfg.withDefaults()
	opt, err := options(cfg)
	if err != nil {
		return nil, err
	}
	client := goredis.NewClient(opt)
	return &RateLimiter{client: client, limiter: redis_rate.NewLimiter(client), prefix: cfg.Prefix, timeout: cfg.Timeout}, nil
}

func (cfg Config) withDefaults() Config {
	if cfg.Prefix == "" {
		cfg.Prefix = DefaultPrefix
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.PoolSize <= 0 {
		cfg.PoolSize = 10 * runtime.GOMAXPROCS(0)
	}
	return cfg
}

// options turns cfg into go-redis options: what the URL sets, then bounded
// defaults for everything a stalled server could stretch.
func options(cfg Config) (*goredis.Options, error) {
	if cfg.URL == "" {
		return nil, errors.New("redis: empty URL (want redis://host:port/db)")
	}
	opt, err := goredis.ParseURL(cfg.URL)
	if err != nil {
		if uerr := (*url.Error)(nil); errors.As(err, &uerr) {
			err = uerr.Err // url.Error repeats the URL, password included
		}
		return nil, fmt.Errorf("redis: bad URL: %w", err)
	}
	for _, d := range []*time.Duration{&opt.DialTimeout, &opt.ReadTimeout, &opt.WriteTimeout, &opt.PoolTimeout} {
		if *d == 0 {
			*d = cfg.Timeout
		}
	}
	opt.ContextTimeoutEnabled = true // the call's deadline bounds every wait
	if opt.PoolSize == 0 {
		opt.PoolSize = cfg.PoolSize
	}
	// A Take runs a script that updates the client's state: a retry after a
	// lost answer could charge the request twice, so there is one attempt
	// (and one dial) per call, and the caller falls back on failure.
	if opt.MaxRetries == 0 {
		opt.MaxRetries = -1
	}
	opt.DialerRetries = 1
	if opt.ClientName == "" {
		opt.ClientName = "pinsight"
	}
	return opt, nil
}

var quietLibraryLog sync.Once

// debugLog is go-redis's logger: slog.Default at debug level.
type debugLog struct{}

func (debugLog) Printf(ctx context.Context, format string, v ...any) {
	slog.DebugContext(ctx, "go-redis: "+fmt.Sprintf(format, v...))
}

// Ping checks that Redis answers within the timeout.
func (l *RateLimiter) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	if err := l.client.Ping(ctx).Err(); err != nil {
		return unavailable(err)
	}
	return nil
}

// Close closes the connections.
func (l *RateLimiter) Close() error { return l.client.Close() }

// unavailable marks err as a failure to reach Redis (ports.ErrUnavailable),
// keeping the cause.
func unavailable(err error) error {
	return fmt.Errorf("redis: %w: %w", ports.ErrUnavailable, err)
}
