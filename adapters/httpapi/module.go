package httpapi

import (
	"log/slog"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/app"
)

// Module provides the huma API on a private mux, registers every operation
// and runs the HTTP server for the app's lifetime. It needs a Config and a
// *slog.Logger.
var Module = fx.Module("httpapi",
	fx.Provide(fx.Private, http.NewServeMux, NewAPI),
	fx.Provide(newServer),
	fx.Invoke(register, func(lc fx.Lifecycle, s *Server) { lc.Append(fx.StartStopHook(s.Start, s.Stop)) }),
)

type routeParams struct {
	fx.In
	API      huma.API
	Health   *app.Health
	Accounts *app.Accounts `optional:"true"`
}

func register(p routeParams) { Register(p.API, Routes{Health: p.Health, Accounts: p.Accounts}) }

func newServer(cfg Config, mux *http.ServeMux, log *slog.Logger) *Server {
	return NewServer(cfg, NewHandler(mux), log)
}
