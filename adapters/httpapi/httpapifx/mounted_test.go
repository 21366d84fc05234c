package httpapifx_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/httpapifx"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/adapters/memory/memoryfx"
	"github.com/pinsight/pinsight/app/appfx"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

// TestMounted: the fx variant adds the API to the host's mux under its base
// path, beside the host's routes, and starts no server of its own.
func TestMounted(t *testing.T) {
	host := http.NewServeMux()
	host.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("host home")) })
	store := memory.NewPostalStore(porttest.PostalDataset())
	graph := fx.Options(
		fx.Supply(httpapifx.Host{Mux: host, BasePath: "/geo"}, slog.New(slog.DiscardHandler)),
		fx.Supply(fx.Annotate(store, fx.As(new(ports.PostalStore)))),
		appfx.Module, memoryfx.RateLimiter, httpapifx.Mounted, httpapifx.PostalRoutes,
	)
	if err := fx.ValidateApp(fx.NopLogger, graph, fx.Populate(new(*httpapi.Server))); err == nil {
		t.Error("the mounted graph holds a server of its own")
	}
	app := fxtest.New(t, graph)
	app.RequireStart()
	defer app.RequireStop()
	srv := httptest.NewServer(host)
	defer srv.Close()
	for path, want := range map[string]int{"/geo/api/v1/pincodes/800001": 200, "/geo/readyz": 200, "/geo/openapi.json": 200, "/": 200, "/api/v1/pincodes/800001": 404, "/geo/api/v1/nope": 404} {
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		_, _ = io.Copy(&b, res.Body)
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("GET %s = %d, want %d", path, res.StatusCode, want)
		}
		if strings.HasPrefix(path, "/geo/api/") && res.Header.Get("Content-Type") != "application/json" {
			t.Errorf("GET %s: %s, want the JSON envelope", path, res.Header.Get("Content-Type"))
		}
		if path == "/geo/openapi.json" && !strings.Contains(b.String(), `"url":"/geo"`) {
			t.Errorf("the mounted document does not list server /geo")
		}
	}
}

// TestMountedRejectsBadBasePath: a base path Handler refuses fails start-up.
func TestMountedRejectsBadBasePath(t *testing.T) {
	store := memory.NewPostalStore(porttest.PostalDataset())
	app := fx.New(fx.NopLogger,
		fx.Supply(httpapifx.Host{Mux: http.NewServeMux(), BasePath: "geo/"}, slog.New(slog.DiscardHandler)),
		fx.Supply(fx.Annotate(store, fx.As(new(ports.PostalStore)))),
		appfx.Module, memoryfx.RateLimiter, httpapifx.Mounted, httpapifx.PostalRoutes,
	)
	if err := app.Err(); err == nil || !strings.Contains(err.Error(), "base path") {
		t.Errorf("start with base path geo/ = %v, want an error naming the base path", err)
	}
}
