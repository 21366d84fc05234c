package middleware_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/domain/ratelimit"
)

// nullWriter is a ResponseWriter that keeps nothing, so the benchmarks
// measure the handlers, not a recorder's buffers.
type nullWriter struct{ h http.Header }

func (w *nullWriter) Header() http.Header         { return w.h }
func (w *nullWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *nullWriter) WriteHeader(int)             {}

// BenchmarkEdge measures the middleware chain around a handler that writes
// a fixed 3 KB JSON body: the bare mux, the edge without and with an
// access log (JSON, discarded: through slog's handler, and appended by
// hand as serve logs it) and metrics, and with a rate limit.
func BenchmarkEdge(b *testing.B) {
	body := []byte(`{"success":true,"data":"` + strings.Repeat("x", 3000) + `"}`)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/pincodes/{pincode}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
	log := slog.New(middleware.ContextLog(slog.NewJSONHandler(io.Discard, nil)))
	lines := slog.New(middleware.ContextLog(middleware.NewJSONHandler(io.Discard, slog.LevelInfo)))
	for _, c := range []struct {
		name string
		h    http.Handler
	}{
		{"bare", mux},
		{"edge", middleware.NewHandler(mux, middleware.Options{})},
		{"edge+log+metrics", middleware.NewHandler(mux, middleware.Options{Log: log, Metrics: middleware.NewMetrics()})},
		{"edge+linelog+metrics", middleware.NewHandler(mux, middleware.Options{Log: lines, Metrics: middleware.NewMetrics()})},
		{"edge+log+metrics+quota", middleware.NewHandler(mux, middleware.Options{Log: log, Metrics: middleware.NewMetrics(),
			Limiter: memory.NewRateLimiter(), RateLimits: middleware.RateLimits{Default: ratelimit.Limit{Requests: 1 << 30, Window: 60e9}}})},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, "/api/v1/pincodes/110001", nil)
			w := &nullWriter{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				clear(w.h)
				c.h.ServeHTTP(w, req)
			}
		})
	}
}
