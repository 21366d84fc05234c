package main

import (
	"context"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/spf13/cobra"
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/httpapifx"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/adapters/mcp"
	"github.com/pinsight/pinsight/adapters/mcp/mcpfx"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/domain/account"
)

// mcpPath is where serve --mcp mounts the MCP transport.
const mcpPath = "/mcp"

// newMCPCmd is `pinsight mcp`: the MCP server over stdio, for an AI
// assistant that starts it as a subprocess. It serves until the assistant
// closes stdin (or a signal), on serve's storage and data flags; its logs
// go to stderr, stdout carries the protocol.
func newMCPCmd() *cobra.Command {
	var cfg serveConfig
	var key string
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the MCP tools over stdio (for an AI assistant), until stdin closes",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := bindEnv(cmd); err != nil {
				return err
			}
			return runMCP(cmd.Context(), cfg, key)
		},
	}
	f := cmd.Flags()
	f.StringVar(&key, "api-key", "", "API key of the assistant's user, for the site-analysis tools (analyse_url, get_report, list_reports); empty: postal and DIGIPIN tools only")
	databaseFlags(f, &cfg.Database)
	dataFlags(f, &cfg.Data, "served")
	boundaryFlags(f, &cfg.Boundaries)
	siteFlags(f, &cfg.Site)
	passwordFlags(f, &cfg.Passwords)
	redisFlags(f, &cfg.RedisURL)
	f.DurationVar(&cfg.ShutdownTimeout, "shutdown-timeout", 20*time.Second, "time allowed for running analyses on exit")
	f.DurationVar(&cfg.StartTimeout, "start-timeout", 2*time.Minute, "time allowed to start (connect, migrate, load the directory); beyond, mcp exits with an error")
	f.StringVar(&cfg.LogLevel, "log-level", "warn", "log level (to stderr): debug, info, warn, error")
	f.StringVar(&cfg.LogFormat, "log-format", "text", "log format: json or text")
	documentEnv(cmd)
	return cmd
}

// runMCP runs the stdio graph until the client closes stdin or a signal.
func runMCP(ctx context.Context, cfg serveConfig, key string) error {
	log, buf := newLogger(os.Stderr, cfg.LogLevel, cfg.LogFormat)
	defer func() { _ = buf.Close() }()
	slog.SetDefault(log)
	log.Info("pinsight starting", "command", "mcp", "version", buildVersion())
	core, err := coreOptions(cfg, 0, log)
	if err != nil {
		return err
	}
	bounds, err := boundaryOptions(cfg.Boundaries)
	if err != nil {
		return err
	}
	opts := fx.Options(core, bounds, fx.Supply(mcpfx.Config{Key: key, Version: buildVersion()}), mcpfx.Module, mcpfx.Stdio)
	return runApp(ctx, opts, cfg.StartTimeout, cfg.ShutdownTimeout, log)
}

// mcpOverHTTP is serve --mcp: the MCP transport at mcpPath on the API's
// listener, behind its edge, the edge's verdict on a request's Bearer key
// reused.
var mcpOverHTTP = fx.Options(
	fx.Supply(mcpfx.Config{Version: buildVersion()}),
	fx.Provide(edgeAuthenticator, mcpHTTPOptions),
	mcpfx.Module,
	mcpfx.HTTP,
	fx.Provide(fx.Annotate(func(h http.Handler) httpapifx.Mount {
		return httpapifx.Mount{Pattern: mcpPath, Handler: h, Metered: true}
	}, fx.ParamTags(`name:"mcp"`), fx.ResultTags(httpapifx.MountGroup))),
)

// mcpHTTPOptions bind /mcp to the API's edge: each message of a batch
// charged to the request's quota, browser origins as --cors-origins
// allows, and a request's work ended before the write timeout cuts it.
func mcpHTTPOptions(c httpapi.Config) mcp.HTTPOptions {
	wt := c.WriteTimeout
	if wt <= 0 {
		wt = 60 * time.Second // httpapi's default
	}
	return mcp.HTTPOptions{Charge: middleware.Charge, Origins: c.CORSOrigins, Deadline: wt * 9 / 10}
}

// edgeAuthenticator verifies keys as the API does: the edge's verdict on
// the request's key when it gave one, else the accounts now.
func edgeAuthenticator(acc *accounts.Accounts) mcp.Authenticator {
	return func(ctx context.Context, key string) (account.User, error) {
		c, err := middleware.Authenticate(ctx, acc.Authenticate, key)
		return c.User, err
	}
}
