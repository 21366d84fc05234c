package main

import (
	"log/slog"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/httpapi/httpapifx"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/appfx"
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
	stores, err := storage(cfg)
	if err != nil {
		return nil, err
	}
	return fx.Options(
		fx.Supply(cfg.HTTP, log, accounts.DefaultPasswordParams, cfg.Passwords),
		appfx.Module,
		appfx.JobRunner,
		httpapifx.Module,
		httpapifx.JobGauges,
		// Every storage keeps accounts and reports, so the whole API is
		// served; one without them would choose httpapifx.PostalRoutes.
		httpapifx.AllRoutes,
		stores,
		site,
		bounds,
	), nil
}

// workerOptions is the graph of `pinsight worker`: the stores, the
// analyser and the job runner, without the HTTP server.
func workerOptions(cfg serveConfig, log *slog.Logger) (fx.Option, error) {
	site, err := siteOptions(cfg.Site, 0)
	if err != nil {
		return nil, err
	}
	stores, err := storage(cfg)
	if err != nil {
		return nil, err
	}
	return fx.Options(
		fx.Supply(log, accounts.DefaultPasswordParams, cfg.Passwords),
		appfx.Module,
		appfx.JobRunner,
		stores,
		site,
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
