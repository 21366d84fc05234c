package main

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/httpapi"
)

// TestPprofListener: --pprof-addr serves Go's profiler on its own address,
// and the API's address still does not.
func TestPprofListener(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // a free port for the profiler
	var srv *httpapi.Server
	cfg := serveConfig{HTTP: httpapi.Config{Addr: "127.0.0.1:0"}, Database: databaseConfig{URL: "memory:"}, PprofAddr: addr}
	a := fxtest.New(t, mustOptions(t, cfg), fx.Populate(&srv))
	a.RequireStart()
	defer a.RequireStop()

	res, err := http.Get("http://" + addr + "/debug/pprof/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "test") {
		t.Errorf("GET /debug/pprof/cmdline on --pprof-addr = %d %q; want 200 and the command line", res.StatusCode, body)
	}
	res, err = http.Get("http://" + srv.Addr() + "/debug/pprof/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("GET /debug/pprof/cmdline on the API's address = %d, want 404", res.StatusCode)
	}
}
