package httpapifx_test

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/adapters/fetch/fetchfx"
	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/httpapifx"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/adapters/memory/memoryfx"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/appfx"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

// base is what every graph of these tests holds: the server's settings, a
// logger, and the postal directory over the test dataset.
func base() fx.Option {
	store := memory.NewPostalStore(porttest.PostalDataset())
	return fx.Options(
		fx.Supply(httpapi.Config{Addr: "127.0.0.1:0"}, slog.New(slog.DiscardHandler)),
		fx.Supply(fx.Annotate(store, fx.As(new(ports.PostalStore)))),
		appfx.Module, httpapifx.Module,
	)
}

// site is what the site analysis needs on top of base.
func site(without string) fx.Option {
	opts := []fx.Option{memoryfx.Module}
	if without != "password costs" {
		opts = append(opts, fx.Supply(accounts.PasswordParams{MemoryKiB: 64, Time: 1, Threads: 1}))
	}
	if without != "fetcher" {
		opts = append(opts, fx.Supply(fetch.Config{}), fetchfx.Module)
	}
	return fx.Options(opts...)
}

// TestMissingDependencyFailsStart: a graph lacking a use case's dependency
// does not start (before, the routes of that use case silently vanished:
// without password costs, /register was a 404); nor does one that names no
// route group.
func TestMissingDependencyFailsStart(t *testing.T) {
	if err := fx.ValidateApp(fx.NopLogger, base(), site(""), httpapifx.AllRoutes); err != nil {
		t.Fatalf("the whole graph: %v", err)
	}
	tests := []struct {
		name string
		opts fx.Option
		want string
	}{
		{"without password costs", fx.Options(base(), site("password costs"), httpapifx.AllRoutes), "accounts.PasswordParams"},
		{"without a fetcher", fx.Options(base(), site("fetcher"), httpapifx.AllRoutes), "ports.PageFetcher"},
		{"without report and account stores", fx.Options(base(), memoryfx.RateLimiter, fx.Supply(accounts.PasswordParams{Time: 1, Threads: 1}), httpapifx.AllRoutes), "ports.AccountStore"},
		{"without a route group", fx.Options(base(), site("")), "httpapi.Routes"},
	}
	for _, tt := range tests {
		err := fx.ValidateApp(fx.NopLogger, tt.opts)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: ValidateApp = %v, want an error naming %s", tt.name, err, tt.want)
		}
	}
}

// TestPostalRoutes: a server that says it has no site analysis starts
// without account or report stores and serves the directory only.
func TestPostalRoutes(t *testing.T) {
	var srv *httpapi.Server
	app := fxtest.New(t, base(), memoryfx.RateLimiter, httpapifx.PostalRoutes, fx.Populate(&srv))
	app.RequireStart()
	defer app.RequireStop()
	for path, want := range map[string]int{"/api/v1/pincodes/800001": 200, "/api/v1/pincodes/nearby?latitude=25.6&longitude=85.1": 200, "/api/v1/digipin/info": 200, "/readyz": 200} {
		res, err := http.Get("http://" + srv.Addr() + path)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("GET %s = %d, want %d", path, res.StatusCode, want)
		}
	}
	res, err := http.Post("http://"+srv.Addr()+"/api/v1/register", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("POST /register on a postal-only server = %d, want 404", res.StatusCode)
	}
}

// TestExtraCollectors: a part of the graph registers its own collector on
// the server's registry, and /metrics serves it beside the HTTP series.
func TestExtraCollectors(t *testing.T) {
	var srv *httpapi.Server
	jobs := prometheus.NewCounter(prometheus.CounterOpts{Name: "pinsight_test_jobs_total", Help: "Jobs run."})
	app := fxtest.New(t, base(), memoryfx.RateLimiter, httpapifx.PostalRoutes, fx.Populate(&srv),
		fx.Invoke(func(r prometheus.Registerer) { r.MustRegister(jobs) }))
	app.RequireStart()
	defer app.RequireStop()
	jobs.Add(3)
	res, err := http.Get("http://" + srv.Addr() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, want := range []string{"pinsight_test_jobs_total 3", "go_goroutines ", "pinsight_postal_offices "} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

// TestMetricsListener: with MetricsAddr set, /metrics is served there
// (Prometheus text) and the API's listener answers 404 for it.
func TestMetricsListener(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	metricsAddr := ln.Addr().String()
	ln.Close() // a free port for the metrics listener
	var srv *httpapi.Server
	app := fxtest.New(t, base(), memoryfx.RateLimiter, httpapifx.PostalRoutes, fx.Populate(&srv),
		fx.Replace(httpapi.Config{Addr: "127.0.0.1:0", MetricsAddr: metricsAddr}))
	app.RequireStart()
	defer app.RequireStop()

	res, err := http.Get("http://" + metricsAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain") ||
		!strings.Contains(string(raw), "# TYPE go_goroutines gauge") || !strings.Contains(string(raw), "pinsight_postal_offices ") {
		t.Errorf("GET /metrics on MetricsAddr = %d %q %.200q; want 200 and Prometheus text", res.StatusCode, res.Header.Get("Content-Type"), raw)
	}
	res, err = http.Get("http://" + srv.Addr() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("GET /metrics on the API's address = %d, want 404", res.StatusCode)
	}
}
