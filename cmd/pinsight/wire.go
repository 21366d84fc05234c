package main

import (
	"log/slog"
	"time"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/httpapifx"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/appfx"
	"github.com/pinsight/pinsight/app/reviews"
)

// options is the whole application graph for cfg. The choice of adapters is
// made here, and only here.
func options(cfg serveConfig, log *slog.Logger) (fx.Option, error) {
	cfg.Database.Server = true
	core, err := coreOptions(cfg, cfg.HTTP.WriteTimeout, log)
	if err != nil {
		return nil, err
	}
	bounds, err := boundaryOptions(cfg.Boundaries)
	if err != nil {
		return nil, err
	}
	mcp := fx.Options()
	if cfg.MCP {
		mcp = mcpOverHTTP
	}
	return fx.Options(
		core,
		fx.Supply(cfg.HTTP),
		httpapifx.Module,
		httpapifx.JobGauges,
		// Every storage keeps accounts and reports, so the whole API is
		// served; one without them would choose httpapifx.PostalRoutes.
		httpapifx.AllRoutes,
		fx.Decorate(withVersion),
		bounds,
		pprofOptions(cfg.PprofAddr),
		mcp,
	), nil
}

// withVersion has /readyz show the build's version.
func withVersion(r httpapi.Routes) httpapi.Routes {
	r.Version = buildVersion()
	return r
}

// workerOptions is the graph of `pinsight worker`: the stores, the
// analyser and the job runner, without the HTTP server.
func workerOptions(cfg serveConfig, log *slog.Logger) (fx.Option, error) {
	return coreOptions(cfg, 0, log)
}

// coreOptions is what serve and worker share: the use cases, the job
// runner, the stores and the analyser (whose fetch deadline must stay below
// writeTimeout when it is positive).
func coreOptions(cfg serveConfig, writeTimeout time.Duration, log *slog.Logger) (fx.Option, error) {
	site, err := siteOptions(cfg.Site, writeTimeout)
	if err != nil {
		return nil, err
	}
	stores, err := storage(cfg)
	if err != nil {
		return nil, err
	}
	return fx.Options(
		fx.Supply(log, accounts.DefaultPasswordParams, cfg.Passwords, reviewsConfig(cfg.Reviews)),
		appfx.Module,
		appfx.JobRunner,
		appfx.Webhooks,
		appfx.Crawls,
		stores,
		rateLimits(cfg.RedisURL),
		site,
		tracingOptions(cfg.Tracing),
	), nil
}

// storage selects the store adapters by the --database-url scheme (see
// backends).
func storage(cfg serveConfig) (fx.Option, error) {
	_, b, err := backendFor(cfg.Database.URL)
	if err != nil {
		return nil, err
	}
	return b.serve(cfg.Database, cfg.Data), nil
}

// reviewsConfig maps --review-rate-limit off (a limit not Enabled) to
// reviews.NoLimit: the zero Limit would mean the default.
func reviewsConfig(c reviews.Config) reviews.Config {
	if !c.WriteLimit.Enabled() {
		c.WriteLimit = reviews.NoLimit
	}
	return c
}
