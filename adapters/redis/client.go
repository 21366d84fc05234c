// Package redis keeps shared rate-limit state in Redis, so several Pinsight
// instances enforce one quota: a ports.RateLimiter on go-redis and
// redis_rate (the same GCRA as domain/ratelimit, run as a Lua script in
// Redis), and Fallback, which serves from an in-process limiter while
// Redis cannot answer.
//
// # Leases
//
// A limit is leased when at least 2 of its tokens come back within its
// lease time, L = min(Config.LeaseTime (1 s), Span/64): then Take answers
// a key's requests from a lease, a batch of B tokens taken from Redis in
// one round trip (as many as are free, up to the size asked for) and
// spent locally for at most L. B starts at 1 for a key new to the
// instance, doubles while leases are spent within L/2, drops to what was
// spent when one expires with tokens left, and never exceeds
// Bmax = min(MaxLease (1024), L/Interval) <= Requests/64. Smaller limits
// (e.g. 10/1m, 300/24h: Bmax below 2) and TakeN always cost one round trip
// per call and are exact. The lease requests of different keys waiting at
// once go to Redis together, in one pipeline.
//
// Accuracy with N instances, for a leased limit. Every token spent was
// charged in Redis at most L before, and each instance holds at most
// Bmax-1 unspent ones per key, so in any span of time a client is admitted
// at most min(L/Interval, N*(Bmax-1)) <= Requests/64 requests more than
// the exact limiter would admit (600/1m: 9 more, 1.5%). It may be refused
// early by the tokens other instances hold unspent (at most
// (N-1)*(Bmax-1)) and by the tokens of expired leases that were never
// spent (at most Bmax-1 per expiry, and the next lease shrinks to what was
// spent, so a client at a steady rate wastes none): those stay charged, as
// if used, and come back at the quota's own rate. They are not returned:
// a return is another write per lease, and a GCRA charge cannot be undone
// exactly once the client's quota was whole in between (the return would
// give back more than was taken).
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
	DefaultPrefix      = "pinsight:"
	DefaultTimeout     = 200 * time.Millisecond
	DefaultPingTimeout = time.Second
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
	// Timeout bounds one Take, TakeN or lease request as a whole: the wait
	// for a pooled connection, a dial, writing and reading the answer
	// (default DefaultTimeout). A stalled Redis therefore delays a request by at
	// most Timeout, and Fallback skips it for a while after that.
	Timeout time.Duration
	// PingTimeout bounds Ping (default DefaultPingTimeout): longer than
	// Timeout, so a readiness check under CPU load does not take a slow
	// answer for an outage.
	PingTimeout time.Duration
	// LeaseTime is the longest a lease of tokens is spent locally (default
	// DefaultLeaseTime; negative: no leases, one round trip per Take). See
	// the package doc for what it bounds.
	LeaseTime time.Duration
	// PoolSize is the most connections open at once (default 10 per
	// GOMAXPROCS, go-redis's own default). A Take holds one for a single
	// round trip; a call finding none free within Timeout fails like an
	// unreachable Redis, so the pool must cover the request rate times the
	// round trip (10k requests/s at 0.2 ms keep 2 connections busy).
	PoolSize int
}

// RateLimiter is a ports.RateLimiter whose state lives in Redis.
type RateLimiter struct {
	client      *goredis.Client
	limiter     *redis_rate.Limiter
	leases      *leases
	prefix      string
	timeout     time.Duration
	pingTimeout time.Duration
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
	l := &RateLimiter{client: client, limiter: redis_rate.NewLimiter(client), prefix: cfg.Prefix, timeout: cfg.Timeout, pingTimeout: cfg.PingTimeout}
	p := &pipeline{client: client, prefix: cfg.Prefix, timeout: cfg.Timeout}
	l.leases = newLeases(time.Now, cfg.LeaseTime, p.lease)
	return l, nil
}

func (cfg Config) withDefaults() Config {
	if cfg.Prefix == "" {
		cfg.Prefix = DefaultPrefix
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.PingTimeout <= 0 {
		cfg.PingTimeout = DefaultPingTimeout
	}
	if cfg.LeaseTime == 0 {
		cfg.LeaseTime = DefaultLeaseTime
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
	// Every call carries its own deadline (Timeout, or PingTimeout for
	// Ping), which bounds every wait; these defaults only must not cut the
	// longest of them short.
	for _, d := range []*time.Duration{&opt.DialTimeout, &opt.ReadTimeout, &opt.WriteTimeout, &opt.PoolTimeout} {
		if *d == 0 {
			*d = max(cfg.Timeout, cfg.PingTimeout)
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

// Ping checks that Redis answers within the ping timeout.
func (l *RateLimiter) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, l.pingTimeout)
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
