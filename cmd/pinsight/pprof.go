package main

import (
	"log/slog"
	"net/http"
	"net/http/pprof"
	"time"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/httpapi"
)

// pprofOptions serves Go's profiler (net/http/pprof) on its own listener
// when addr is set: never on the API's address, so it is reachable only
// where the operator binds it (127.0.0.1:6060, say). Empty: nothing.
func pprofOptions(addr string) fx.Option {
	if addr == "" {
		return fx.Options()
	}
	return fx.Invoke(func(lc fx.Lifecycle, log *slog.Logger) {
		mux := http.NewServeMux()
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
		// Profiles and traces stream for ?seconds= (30 s by default): room for long ones.
		srv := httpapi.NewServer(httpapi.Config{Addr: addr, WriteTimeout: 10 * time.Minute}, mux, log.With("server", "pprof"))
		lc.Append(fx.Hook{OnStart: srv.Start, OnStop: srv.Stop})
	})
}
