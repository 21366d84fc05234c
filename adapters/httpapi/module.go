package httpapi

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/ports"
)

// Module provides the huma API on a private mux, registers every operation
// and runs the HTTP server for the app's lifetime. It needs a Config and a
// *slog.Logger.
var Module = fx.Module("httpapi",
	fx.Provide(fx.Private, http.NewServeMux, NewAPI),
	fx.Provide(newServer, NewMetrics),
	fx.Invoke(register, registerGauges, func(lc fx.Lifecycle, s *Server) { lc.Append(fx.StartStopHook(s.Start, s.Stop)) }),
)

type routeParams struct {
	fx.In
	API      huma.API
	Health   *health.Health
	Accounts *accounts.Accounts   `optional:"true"`
	Postal   *directory.Directory `optional:"true"`
	Reports  *reports.Reports     `optional:"true"`
	Projects *reports.Projects    `optional:"true"`
	Share    ShareOptions         `optional:"true"`
	Geocoder *geocode.Geocoder    `optional:"true"`
	Limiter  ports.RateLimiter    `optional:"true"`
	Config   Config
}

func register(p routeParams) {
	Register(p.API, Routes{Health: p.Health, Accounts: p.Accounts, Directory: p.Postal, Geocoder: p.Geocoder,
		Reports: p.Reports, Projects: p.Projects, Share: p.Share.withServer(p.Limiter, p.Config)})
}

type serverParams struct {
	fx.In
	Config   Config
	Mux      *http.ServeMux
	Log      *slog.Logger
	Metrics  *Metrics
	Limiter  ports.RateLimiter  `optional:"true"`
	Accounts *accounts.Accounts `optional:"true"`
}

func newServer(p serverParams) *Server {
	p.Mux.Handle("GET /metrics", p.Metrics)
	o := HandlerOptions{
		Log: p.Log, Metrics: p.Metrics, Limiter: p.Limiter,
		RateLimits: p.Config.RateLimits, CORSOrigins: p.Config.CORSOrigins, Limits: p.Config.requestLimits(),
	}
	if p.Accounts != nil {
		o.Authenticate = p.Accounts.Authenticate
	}
	h := NewHandler(p.Mux, o)
	return NewServer(p.Config, h, p.Log)
}

type gaugeParams struct {
	fx.In
	Metrics  *Metrics
	Postal   *directory.Directory `optional:"true"`
	Analyser *reports.Analyser    `optional:"true"`
}

// registerGauges exposes the dataset size and the analysis pool's use.
func registerGauges(p gaugeParams) {
	if p.Postal != nil {
		p.Metrics.Gauge("pinsight_postal_offices", "Post offices in the served dataset (0: none loaded).", func() float64 {
			info, err := p.Postal.Info(context.Background())
			if err != nil {
				return 0
			}
			return float64(info.Offices)
		})
	}
	if p.Analyser != nil {
		p.Metrics.Gauge("pinsight_analysis_slots_in_use", "Analyses running now.", func() float64 {
			n, _ := p.Analyser.Saturation()
			return float64(n)
		})
		p.Metrics.Gauge("pinsight_analysis_slots", "Analyses that may run at once.", func() float64 {
			_, size := p.Analyser.Saturation()
			return float64(size)
		})
	}
}
