package main

import (
	"context"
	"log/slog"
	"os"
	"time"

	"github.com/spf13/cobra"
)

// newWorkerCmd is `pinsight worker`: it runs the queued analyses of the
// database (River) without serving HTTP, so analysis capacity scales apart
// from the API. Its flags are serve's storage, analyser and logging flags.
func newWorkerCmd() *cobra.Command {
	var cfg serveConfig
	cmd := &cobra.Command{
		Use:   "worker",
		Short: "Run queued analyses (jobs) without serving HTTP, until SIGINT or SIGTERM",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := bindEnv(cmd); err != nil {
				return err
			}
			return work(cmd.Context(), cfg)
		},
	}
	f := cmd.Flags()
	databaseFlags(f, &cfg.Database)
	siteFlags(f, &cfg.Site)
	passwordFlags(f, &cfg.Passwords)
	f.DurationVar(&cfg.ShutdownTimeout, "shutdown-timeout", 20*time.Second, "time allowed for running analyses on shutdown")
	f.DurationVar(&cfg.StartTimeout, "start-timeout", 2*time.Minute, "time allowed to start (connect, wait for other instances' migration lock, migrate); beyond, worker exits with an error")
	redisFlags(f, &cfg.RedisURL)
	tracingFlags(f, &cfg.Tracing)
	f.StringVar(&cfg.LogLevel, "log-level", "info", "log level: debug, info, warn, error")
	f.StringVar(&cfg.LogFormat, "log-format", "json", "log format: json or text")
	documentEnv(cmd)
	return cmd
}

// work runs the worker graph until a signal, then stops it gracefully.
func work(ctx context.Context, cfg serveConfig) error {
	log, buf := newLogger(os.Stderr, cfg.LogLevel, cfg.LogFormat)
	defer func() { _ = buf.Close() }()
	slog.SetDefault(log)
	log.Info("pinsight starting", "command", "worker", "version", buildVersion())
	opts, err := workerOptions(cfg, log)
	if err != nil {
		return err
	}
	return runApp(ctx, opts, cfg.StartTimeout, cfg.ShutdownTimeout, log)
}
