package main

import (
	"log/slog"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app"
)

// options is the whole application graph for cfg. The choice of adapters is
// made here, and only here.
func options(cfg serveConfig, log *slog.Logger) fx.Option {
	return fx.Options(
		fx.Supply(cfg.HTTP, log, app.DefaultPasswordParams),
		app.Module,
		httpapi.Module,
		storage(cfg),
	)
}

// storage selects the store adapters.
func storage(serveConfig) fx.Option {
	return memory.Module
}
