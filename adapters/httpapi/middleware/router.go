package middleware

import (
	"log/slog"
	"net/http"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	noopmetric "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/pinsight/pinsight/ports"
)

// Options configures the middleware around the API.
type Options struct {
	Log        *slog.Logger      // access log, and the log of everything behind the edge (Logger); nil discards
	Metrics    *Metrics          // nil: not collected (NewMetrics gives each server its own registry)
	Limiter    ports.RateLimiter // nil: no rate limiting
	RateLimits RateLimits        // quotas for Limiter
	// Metered are paths whose POSTs may charge more requests than the one
	// the edge charges, with Charge (another transport's batches), besides
	// the bulk-file operations.
	Metered     []string
	CORSOrigins []string      // origins allowed on the site-analysis API ("*" for any)
	Limits      RequestLimits // URL, header, query and concurrency caps; zero: defaults
	// Authenticate verifies Bearer keys at the edge, once per request, so
	// quotas charge a verified key's user (nil: every request is charged
	// to its IP, and protected operations verify keys themselves).
	Authenticate Authenticator
	// Tracer records a server span per request (otelhttp), named for the
	// route pattern, continuing a caller's W3C traceparent; the trace id
	// joins the access log. Nil: no tracing, no cost.
	Tracer trace.TracerProvider
}

// NewHandler wraps the mux with request ids, access logs, metrics, the
// security headers, CORS, request limits, key verification, rate limits,
// the concurrency cap and gzip, in that order, and makes unknown routes
// (404), wrong methods (405, with Allow) and panics (500) answer in the
// error envelope too.
func NewHandler(mux *http.ServeMux, o Options) http.Handler {
	if o.Log == nil {
		o.Log = discard
	}
	h := capped(compressed(enveloped(mux, o.Log)), o.Limits)
	h = rateLimited(h, o.Limiter, o.RateLimits, o.Metered, o.Log, o.Metrics)
	h = authenticated(h, o.Authenticate)
	h = bounded(h, o.Limits)
	h = observed(hardened(corsAllowed(h, o.CORSOrigins)), o.Log, o.Metrics, mux)
	if o.Tracer != nil {
		h = otelhttp.NewHandler(h, "http.server", otelhttp.WithTracerProvider(o.Tracer),
			otelhttp.WithPropagators(propagation.TraceContext{}), otelhttp.WithMeterProvider(noopmetric.NewMeterProvider()))
	}
	return h
}

// enveloped routes through mux, answering what the mux itself rejects in
// the error envelope; a panic is logged to log and answered 500.
func enveloped(mux *http.ServeMux, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				log.ErrorContext(r.Context(), "panic serving request", "method", r.Method, "path", r.URL.Path, "panic", v)
				WriteError(w, http.StatusInternalServerError, "internal server error")
			}
		}()
		h, pattern := mux.Handler(r)
		recordRoute(r.Context(), pattern)
		if pattern != "" {
			mux.ServeHTTP(w, r) // sets the path values Handler does not
			return
		}
		rec := &statusRecorder{header: http.Header{}}
		h.ServeHTTP(rec, r)
		switch rec.status {
		case http.StatusNotFound:
			WriteError(w, http.StatusNotFound, "no such route: "+r.Method+" "+r.URL.Path)
		case http.StatusMethodNotAllowed:
			w.Header().Set("Allow", rec.header.Get("Allow"))
			WriteError(w, http.StatusMethodNotAllowed, "method "+r.Method+" is not allowed here")
		default: // redirects of the mux (path cleaning) pass through
			for k, v := range rec.header {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.status)
		}
	})
}

// statusRecorder captures the status and headers of the mux's own 404 / 405
// handlers, discarding their plain-text bodies.
type statusRecorder struct {
	header http.Header
	status int
}

func (s *statusRecorder) Header() http.Header { return s.header }

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return len(b), nil
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
}
