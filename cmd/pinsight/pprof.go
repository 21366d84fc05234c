package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"go.uber.org/fx"
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
		srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
		lc.Append(fx.Hook{
			OnStart: func(context.Context) error {
				ln, err := net.Listen("tcp", addr)
				if err != nil {
					return err
				}
				log.Info("profiler listening", "addr", ln.Addr().String())
				go func() {
					if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
						log.Error("profiler stopped", "err", err)
					}
				}()
				return nil
			},
			OnStop: srv.Shutdown,
		})
	})
}
