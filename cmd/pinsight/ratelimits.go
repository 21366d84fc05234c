package main

import (
	"log/slog"

	"github.com/spf13/pflag"
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/redis"
	"github.com/pinsight/pinsight/adapters/redis/redisfx"
)

// redisFlags adds --redis-url.
func redisFlags(f *pflag.FlagSet, url *string) {
	f.StringVar(url, "redis-url", "",
		"Redis holding the quotas shared by every instance (redis://[user:password@]host:port/db, rediss:// for TLS); empty: quotas are counted per process")
}

// rateLimits shares the quotas through Redis when a URL is given; the
// storage's in-process limiter then serves only while Redis does not
// answer. Without one, every process counts its own.
func rateLimits(redisURL string) fx.Option {
	if redisURL == "" {
		return fx.Invoke(func(log *slog.Logger) {
			log.Info("quotas are counted per process", "hint", "give every instance the same --redis-url to share them")
		})
	}
	return fx.Options(fx.Supply(redis.Config{URL: redisURL}), redisfx.Shared)
}
