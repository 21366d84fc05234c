// Package redisfx shares the rate limits of an fx graph through Redis
// (package redis).
package redisfx

import (
	"cmp"
	"context"
	"log/slog"
	"sync/atomic"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/redis"
	"github.com/pinsight/pinsight/app/appfx"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/ports"
)

// ComponentName is the readiness component of the shared rate limiter.
const ComponentName = "rate_limits"

// Shared makes every quota of the graph (the public and auth tiers, the
// per-user quotas, the per-host analysis throttle: all Take from the one
// ports.RateLimiter) shared through the Redis a redis.Config in the graph
// names. It decorates the graph's in-process limiter, which must be
// provided elsewhere (memoryfx), into a redis.Fallback: Redis decides while
// it answers, the in-process limiter when it does not, and the readiness
// component "rate_limits" is degraded (readyz stays 200) meanwhile. It is
// a plain option list, not an fx.Module, so that the decoration reaches
// every module of the app. The connections close on stop.
var Shared = fx.Options(
	fx.Provide(open, func() *installed { return &installed{} }),
	fx.Decorate(share),
	fx.Provide(appfx.AsComponent(readiness)),
)

// installed holds the Fallback once share built it, for the readiness
// check: what the check reports is then what serves.
type installed struct {
	fallback atomic.Pointer[redis.Fallback]
}

// open returns the Redis limiter; like sql.Open it does not connect, so an
// instance starts (degraded) while Redis is down.
func open(lc fx.Lifecycle, cfg redis.Config) (*redis.RateLimiter, error) {
	l, err := redis.Open(cfg)
	if err != nil {
		return nil, err
	}
	lc.Append(fx.StopHook(l.Close))
	return l, nil
}

// share puts the Redis limiter in front of the in-process one.
func share(local ports.RateLimiter, shared *redis.RateLimiter, log *slog.Logger, in *installed) ports.RateLimiter {
	f := redis.NewFallback(shared, local, log)
	in.fallback.Store(f)
	return f
}

// readiness reports the limiter degraded while the Fallback serves from
// the in-process limiter (its check pings Redis when a try is due, so an
// idle instance notices an outage and a recovery too); before anything
// took the limiter, it pings Redis itself. The ping has its own budget
// (redis.Config.PingTimeout, 1 s by default), not a Take's 200 ms, so a
// burst of CPU load does not report an outage; the check's timeout leaves
// it room.
func readiness(shared *redis.RateLimiter, cfg redis.Config, in *installed) health.Component {
	return health.Component{
		Name:    ComponentName,
		Timeout: max(health.DefaultCheckTimeout, 2*cmp.Or(cfg.PingTimeout, redis.DefaultPingTimeout)),
		Check: func(ctx context.Context) error {
			if f := in.fallback.Load(); f != nil {
				if degraded, detail := f.Degraded(ctx); degraded {
					return health.Degraded(detail)
				}
				return nil
			}
			if err := shared.Ping(ctx); err != nil {
				return health.Degraded(redis.DegradedDetail)
			}
			return nil
		},
		Describe: func(context.Context) string { return "shared in Redis across instances" },
	}
}
