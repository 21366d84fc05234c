// Package httpapifx serves the HTTP API of package httpapi from an fx
// graph: the huma API on a private mux, the server's lifecycle, metrics
// (a *middleware.Metrics, and its registry as a prometheus.Registerer for
// other parts' collectors), and the route groups the graph chooses
// explicitly.
package httpapifx

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/adapters/httpapi/sharepage"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/app/releases"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/app/reviews"
	"github.com/pinsight/pinsight/app/webhooks"
	"github.com/pinsight/pinsight/ports"
)

// Module runs the HTTP server for the app's lifetime with the routes of an
// httpapi.Routes in the graph, which one of AllRoutes and PostalRoutes
// provides: a graph with neither fails to start, as does one missing a use
// case the chosen routes serve. It needs an httpapi.Config, a *slog.Logger
// and a ports.RateLimiter. /metrics is served on the API's listener, or on
// a listener of its own when the Config's MetricsAddr is set.
var Module = fx.Module("httpapi",
	fx.Provide(fx.Private, http.NewServeMux, httpapi.NewAPI),
	fx.Provide(newServer, middleware.NewMetrics, registerer),
	fx.Invoke(register, postalGauges, func(lc fx.Lifecycle, s *httpapi.Server) { lc.Append(fx.StartStopHook(s.Start, s.Stop)) }),
	fx.Invoke(metricsListener),
)

// metricsListener serves /metrics alone on the Config's MetricsAddr, when
// set, for the app's lifetime.
func metricsListener(lc fx.Lifecycle, cfg httpapi.Config, m *middleware.Metrics, log *slog.Logger) {
	if cfg.MetricsAddr == "" {
		return
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m)
	srv := httpapi.NewServer(httpapi.Config{Addr: cfg.MetricsAddr}, mux, log.With("server", "metrics"))
	lc.Append(fx.StartStopHook(srv.Start, srv.Stop))
}

// registerer offers the server's Prometheus registry to the rest of the
// graph: a part with metrics of its own (a job queue, a cache) registers
// its collectors there and they are served at /metrics.
func registerer(m *middleware.Metrics) prometheus.Registerer { return m.Registry() }

// AllRoutes registers the whole API: health, DIGIPIN, the postal directory
// and geocode, accounts, reports with their public page, projects, post
// office reviews and likes, and webhooks and crawls when the graph has
// them. It requires every other one of those use cases (sharepage.Options
// is optional).
var AllRoutes = fx.Options(fx.Provide(allRoutes), fx.Invoke(analyserGauges))

// PostalRoutes registers health, DIGIPIN, the postal directory and geocode
// only: the explicit choice of a server without site analysis (no
// accounts, reports or projects, whatever else the graph holds).
var PostalRoutes = fx.Provide(postalRoutes)

// postalParams are the use cases of the public routes.
type postalParams struct {
	fx.In
	Health    *health.Health
	Directory *directory.Directory
	Geocoder  *geocode.Geocoder
	Releases  *releases.History `optional:"true"`
}

func postalRoutes(p postalParams) httpapi.Routes {
	return httpapi.Routes{Health: p.Health, Directory: p.Directory, Geocoder: p.Geocoder, Releases: p.Releases,
		BodyCache: httpapi.NewBodyCache(0)}
}

// allParams are the use cases of every route.
type allParams struct {
	fx.In
	Health    *health.Health
	Directory *directory.Directory
	Geocoder  *geocode.Geocoder
	Accounts  *accounts.Accounts
	Reports   *reports.Reports
	Projects  *reports.Projects
	Reviews   *reviews.Reviews
	Share     sharepage.Options  `optional:"true"`
	Webhooks  *webhooks.Webhooks `optional:"true"`
	Crawls    *crawls.Crawls     `optional:"true"`
	Releases  *releases.History  `optional:"true"`
}

func allRoutes(p allParams) httpapi.Routes {
	return httpapi.Routes{Health: p.Health, Directory: p.Directory, Geocoder: p.Geocoder,
		Accounts: p.Accounts, Reports: p.Reports, Projects: p.Projects, Reviews: p.Reviews, Share: p.Share, Webhooks: p.Webhooks,
		Crawls: p.Crawls, Releases: p.Releases, BodyCache: httpapi.NewBodyCache(0)}
}

// register adds the routes to the API, the report page's quota kept by the
// server's limiter; routes lacking a use case an operation needs fail the
// start.
func register(api huma.API, r httpapi.Routes, limiter ports.RateLimiter, cfg httpapi.Config) error {
	r.Share = r.Share.WithServer(limiter, cfg.RateLimits.TrustedProxies)
	return httpapi.Register(api, r)
}

type serverParams struct {
	fx.In
	Config  httpapi.Config
	Mux     *http.ServeMux
	Log     *slog.Logger
	Metrics *middleware.Metrics
	Limiter ports.RateLimiter
	Routes  httpapi.Routes
	Tracer  trace.TracerProvider `optional:"true"`
	Mounts  []Mount              `group:"httpapi_mounts"`
}

// Mount is a handler of another transport (such as MCP) that the server
// serves at Pattern beside the API, behind the same edge: request ids,
// logs, metrics, rate limits and the verification of Bearer keys. A part
// of the graph adds one to the value group MountGroup names.
type Mount struct {
	Pattern string
	Handler http.Handler
	// Metered lets the handler charge more requests of a POST with
	// middleware.Charge (Pattern is then a path, matched exactly).
	Metered bool
}

// MountGroup is the result tag of a constructor of a Mount.
const MountGroup = `group:"httpapi_mounts"`

// newServer serves the mux behind the edge middleware, with /metrics
// unless it has a listener of its own, and the graph's Mounts.
func newServer(p serverParams) *httpapi.Server {
	if p.Config.MetricsAddr == "" {
		p.Mux.Handle("GET /metrics", p.Metrics)
	}
	var metered []string
	for _, m := range p.Mounts {
		p.Mux.Handle(m.Pattern, m.Handler)
		if m.Metered {
			metered = append(metered, m.Pattern)
		}
	}
	o := edgeOptions(p.Config, p.Log, p.Metrics, p.Limiter, p.Routes)
	o.Metered = metered
	o.Tracer = p.Tracer
	return httpapi.NewServer(p.Config, middleware.NewHandler(p.Mux, o), p.Log)
}

// edgeOptions configures the middleware from the server's settings; API
// keys are verified at the edge when the routes include accounts.
func edgeOptions(cfg httpapi.Config, log *slog.Logger, m *middleware.Metrics, limiter ports.RateLimiter, r httpapi.Routes) middleware.Options {
	o := middleware.Options{
		Log: log, Metrics: m, Limiter: limiter,
		RateLimits: cfg.RateLimits, CORSOrigins: cfg.CORSOrigins, Limits: cfg.RequestLimits(),
	}
	if r.Accounts != nil {
		o.Authenticate = r.Accounts.Authenticate
	}
	return o
}

// postalGauges exposes the size of the served dataset and of the cache of
// its encoded answers.
func postalGauges(m *middleware.Metrics, r httpapi.Routes) {
	m.Gauge("pinsight_postal_offices", "Post offices in the served dataset (0: none loaded).", func() float64 {
		info, err := r.Directory.Info(context.Background())
		if err != nil {
			return 0
		}
		return float64(info.Offices)
	})
	if c := r.BodyCache; c != nil {
		m.Gauge("pinsight_postal_cache_bytes", "Bytes of encoded postal answers held by the body cache.", func() float64 {
			return float64(c.Bytes())
		})
	}
}

// analyserGauges exposes the analysis pool's use.
func analyserGauges(m *middleware.Metrics, a *reports.Analyser) {
	m.Gauge("pinsight_analysis_slots_in_use", "Analyses running now.", func() float64 {
		n, _ := a.Saturation()
		return float64(n)
	})
	m.Gauge("pinsight_analysis_slots", "Analyses that may run at once.", func() float64 {
		_, size := a.Saturation()
		return float64(size)
	})
}
