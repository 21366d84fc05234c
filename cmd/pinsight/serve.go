package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/spf13/cobra"
	"go.uber.org/dig"
	"go.uber.org/fx"
	"go.uber.org/fx/fxevent"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/reviews"
)

// serveConfig is everything serve reads from flags and environment.
type serveConfig struct {
	HTTP            httpapi.Config
	Database        databaseConfig
	Data            dataConfig
	Site            siteConfig
	Boundaries      boundaryConfig
	Passwords       accounts.PasswordLimits
	RedisURL        string
	Reviews         reviews.Config
	LogLevel        string
	LogFormat       string
	ShutdownTimeout time.Duration
	StartTimeout    time.Duration
	Tracing         tracingConfig
	PprofAddr       string
	MCP             bool
}

func newServeCmd() *cobra.Command { return serveCommand(serve) }

// serveCommand is the serve command, handing its configuration to run.
func serveCommand(run func(context.Context, serveConfig) error) *cobra.Command {
	cfg := serveConfig{HTTP: httpapi.Config{RateLimits: middleware.DefaultRateLimits}, Reviews: reviews.Config{WriteLimit: reviews.DefaultWriteLimit}}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the HTTP API until SIGINT or SIGTERM",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := bindEnv(cmd); err != nil {
				return err
			}
			return run(cmd.Context(), cfg)
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfg.HTTP.Addr, "addr", ":8080", "listen address")
	databaseFlags(f, &cfg.Database)
	replicaFlags(f, &cfg.Database)
	dataFlags(f, &cfg.Data, "served")
	boundaryFlags(f, &cfg.Boundaries)
	siteFlags(f, &cfg.Site)
	passwordFlags(f, &cfg.Passwords)
	redisFlags(f, &cfg.RedisURL)
	f.DurationVar(&cfg.HTTP.WriteTimeout, "write-timeout", 60*time.Second, "HTTP write timeout")
	f.IntVar(&cfg.HTTP.MaxConcurrentRequests, "max-concurrent-requests", middleware.DefaultMaxConcurrent, "requests served at once; beyond, 503 with Retry-After (-1: no cap)")
	f.IntVar(&cfg.HTTP.MaxQueryParams, "max-query-params", middleware.DefaultMaxQueryParams, "query parameters per request; beyond, 400 (-1: no cap)")
	f.IntVar(&cfg.HTTP.MaxURLBytes, "max-url-bytes", middleware.DefaultMaxURLBytes, "bytes of the request target (path and query); beyond, 414 (-1: no cap)")
	f.DurationVar(&cfg.ShutdownTimeout, "shutdown-timeout", 20*time.Second, "time allowed for in-flight requests on shutdown")
	f.DurationVar(&cfg.StartTimeout, "start-timeout", 2*time.Minute, "time allowed to start (connect, wait for other instances' migration lock, migrate, load the directory); beyond, serve exits with an error")
	f.Var(limitFlag{&cfg.HTTP.RateLimits.Default}, "rate-limit", "quota per client on API routes and the report page: per user for a valid API key, else per IP; N/DURATION or off")
	f.Var(limitFlag{&cfg.HTTP.RateLimits.Auth}, "auth-rate-limit", "quota per IPv4 address or IPv6 /64 on POST /register and /login, N/DURATION or off")
	f.Var(limitFlag{&cfg.Reviews.WriteLimit}, "review-rate-limit", "quota per user of post office review and like writes, N/DURATION or off")
	f.Var(prefixesFlag{&cfg.HTTP.RateLimits.TrustedProxies}, "trusted-proxies", "comma-separated CIDRs of proxies whose X-Forwarded-For (and X-Forwarded-Proto, for the report page's Secure cookies) is believed")
	f.StringSliceVar(&cfg.HTTP.CORSOrigins, "cors-origins", nil, "origins allowed to call the site-analysis API from a browser (public routes allow any)")
	f.StringVar(&cfg.LogLevel, "log-level", "info", "log level: debug, info, warn, error")
	f.StringVar(&cfg.LogFormat, "log-format", "json", "log format: json or text")
	tracingFlags(f, &cfg.Tracing)
	f.StringVar(&cfg.HTTP.MetricsAddr, "metrics-addr", "", "address of a separate listener serving /metrics, which --addr then does not serve: in production, a private one (e.g. 127.0.0.1:9090 or an internal interface); empty: /metrics on --addr, public")
	f.BoolVar(&cfg.MCP, "mcp", false, "also serve the MCP tools (streamable HTTP) at /mcp, behind the same rate limits and API keys")
	f.StringVar(&cfg.PprofAddr, "pprof-addr", "", "address of a separate listener serving Go's profiler at /debug/pprof/ (e.g. 127.0.0.1:6060); empty: none")
	documentEnv(cmd)
	return cmd
}

// serve builds the fx app and runs it (runApp) until SIGINT or SIGTERM,
// then stops the server gracefully. fx's own events go to the log at debug level, its errors at
// error level.
func serve(ctx context.Context, cfg serveConfig) error {
	log, buf := newLogger(os.Stderr, cfg.LogLevel, cfg.LogFormat)
	defer func() { _ = buf.Close() }()
	slog.SetDefault(log)
	log.Info("pinsight starting", "command", "serve", "version", buildVersion())
	opts, err := options(cfg, log)
	if err != nil {
		return err
	}
	return runApp(ctx, opts, cfg.StartTimeout, cfg.ShutdownTimeout, log)
}

// runApp starts the graph opts within ctx and start (a signal during the
// start, or the timeout, ends it) and runs it until SIGINT or SIGTERM,
// then stops it within shutdown.
func runApp(ctx context.Context, opts fx.Option, start, shutdown time.Duration, log *slog.Logger) error {
	a := fx.New(opts, fx.StopTimeout(shutdown+time.Second), fx.WithLogger(func() fxevent.Logger {
		l := &fxevent.SlogLogger{Logger: log}
		l.UseLogLevel(slog.LevelDebug)
		return l
	}))
	startCtx, cancelStart := context.WithTimeout(ctx, start)
	defer cancelStart()
	if err := a.Start(startCtx); err != nil {
		if ctx.Err() == nil && errors.Is(startCtx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("not started within --start-timeout %s: %w", start, dig.RootCause(err))
		}
		return dig.RootCause(err)
	}
	sig := <-a.Wait()
	log.Info("signal received", "signal", sig.Signal.String())
	ctx, cancel := context.WithTimeout(context.Background(), shutdown)
	defer cancel()
	return a.Stop(ctx)
}

// newLogger logs to out through a logBuffer (info lines may lag up to
// logFlushEvery; warnings and errors are written at once); the caller closes
// the buffer on exit to write out the rest.
func newLogger(out io.Writer, level, format string) (*slog.Logger, *logBuffer) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		l = slog.LevelInfo
	}
	buf := newLogBuffer(out, logFlushEvery)
	h := middleware.NewJSONHandler(buf, l) // the edge's access log lines go to buf directly
	if format == "text" {
		h = slog.NewTextHandler(buf, &slog.HandlerOptions{Level: l})
	}
	return slog.New(middleware.ContextLog(flushOnWarn{h, buf})), buf
}
