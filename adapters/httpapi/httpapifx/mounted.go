package httpapifx

import (
	"log/slog"
	"net/http"

	"go.opentelemetry.io/otel/trace"
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/ports"
)

// Host is the host program's mux that Mounted adds the API to, and the
// path it is served under ("" or "/": the root).
type Host struct {
	Mux      *http.ServeMux
	BasePath string
}

// Mounted is Module for a host program with a server of its own: it adds
// the API (the routes of AllRoutes or PostalRoutes, behind the edge
// middleware, as httpapi.Handler builds it) to the Host's mux under
// Host.BasePath, and opens no listener: the host's server serves it, and
// the host decides whether and where to expose the *middleware.Metrics it
// provides (with its prometheus.Registerer, as Module does). It needs a Host, a *slog.Logger and a ports.RateLimiter; an
// httpapi.Config is optional (its quotas, CORS origins and request limits
// apply; its address and timeouts, which belong to a server, do not).
var Mounted = fx.Module("httpapi-mounted",
	fx.Provide(middleware.NewMetrics, registerer),
	fx.Invoke(mount, postalGauges),
)

type mountParams struct {
	fx.In
	Host    Host
	Routes  httpapi.Routes
	Log     *slog.Logger
	Metrics *middleware.Metrics
	Limiter ports.RateLimiter
	Config  httpapi.Config       `optional:"true"`
	Tracer  trace.TracerProvider `optional:"true"`
}

// mount registers the API's handler on the host's mux for the base path
// and everything under it.
func mount(p mountParams) error {
	r := p.Routes
	r.Share = r.Share.WithServer(p.Limiter, p.Config.RateLimits.TrustedProxies)
	edge := edgeOptions(p.Config, p.Log, p.Metrics, p.Limiter, r)
	edge.Tracer = p.Tracer
	h, err := httpapi.Handler(httpapi.HandlerOptions{
		BasePath: p.Host.BasePath, Routes: r,
		Edge: edge,
	})
	if err != nil {
		return err
	}
	base := p.Host.BasePath
	if base == "/" {
		base = ""
	}
	p.Host.Mux.Handle(base+"/", h)
	return nil
}
