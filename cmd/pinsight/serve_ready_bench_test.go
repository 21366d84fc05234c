package main

import (
	"net/http"
	"testing"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/httpapi"
)

// BenchmarkServeReady starts serve's real graph over the embedded snapshot
// (memory storage) until /readyz answers 200, then stops it: the cold start
// of the server, the postal directory's load and indexing included.
func BenchmarkServeReady(b *testing.B) {
	cfg := serveConfig{HTTP: httpapi.Config{Addr: "127.0.0.1:0"}, Database: databaseConfig{URL: "memory:"}}
	for b.Loop() {
		var srv *httpapi.Server
		a := fxtest.New(b, mustOptions(b, cfg), fx.NopLogger, fx.Populate(&srv))
		a.RequireStart()
		res, err := http.Get("http://" + srv.Addr() + "/readyz")
		if err != nil {
			b.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			b.Fatalf("GET /readyz = %d once started, want 200", res.StatusCode)
		}
		b.StopTimer()
		a.RequireStop()
		b.StartTimer()
	}
}
