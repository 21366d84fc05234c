package main

import (
	"log/slog"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/app"
	"github.com/pinsight/pinsight/ports"
)

// options is the whole application graph for cfg. The choice of adapters is
// made here, and only here.
func options(cfg serveConfig, log *slog.Logger) (fx.Option, error) {
	site, err := siteOptions(cfg.Site, cfg.HTTP.WriteTimeout)
	if err != nil {
		return nil, err
	}
	bounds, err := boundaryOptions(cfg.Boundaries)
	if err != nil {
		return nil, err
	}
	return fx.Options(
		fx.Supply(cfg.HTTP, log, app.DefaultPasswordParams, cfg.Passwords),
		app.Module,
		httpapi.Module,
		storage(cfg),
		site,
		bounds,
	), nil
}

// storage selects the store adapters: Postgres when a database URL is
// given, memory otherwise. The rate limiter stays in memory either way.
func storage(cfg serveConfig) fx.Option {
	if cfg.Database.URL == "" {
		return fx.Options(memory.Module, memoryPostal(cfg.Data))
	}
	return fx.Options(
		fx.Supply(cfg.Database),
		postgres.Module,
		fx.Provide(app.AsComponent(func(s ports.PostalStore) app.Component { return postalComponent(s) })),
		fx.Provide(fx.Annotate(memory.NewRateLimiter, fx.As(new(ports.RateLimiter)))),
	)
}
