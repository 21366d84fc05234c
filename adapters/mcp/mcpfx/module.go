// Package mcpfx serves the MCP transport of package mcp from an fx graph:
// the server over the graph's use cases (Module), run over stdio for the
// app's lifetime (Stdio) or as a streamable HTTP handler the host mounts
// behind its edge (HTTP).
package mcpfx

import (
	"context"
	"log/slog"
	"net/http"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/mcp"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/account"
)

// Config is the transport's settings; optional in the graph.
type Config struct {
	// Key is the API key of a stdio session, "" for none.
	Key string
	// Version is announced at initialize.
	Version string
}

// Module provides the *sdk.Server over the graph's directory and geocoder,
// with the site-analysis tools when the graph holds the report and account
// use cases. Keys are verified by the graph's mcp.Authenticator when it
// has one (a host reusing its edge's verdict), else by the accounts.
var Module = fx.Module("mcp", fx.Provide(newServer))

// Stdio serves the server over standard input and output from start; the
// client closing its end shuts the app down.
var Stdio = fx.Invoke(runStdio)

// HTTP provides the server's streamable HTTP handler as an http.Handler
// named "mcp", for the host to mount (at /mcp) behind its edge, with the
// graph's mcp.HTTPOptions when it has them (their Authenticate and Log
// default to the server's).
var HTTP = fx.Provide(fx.Annotate(newHandler, fx.ResultTags(`name:"mcp"`)))

type serverParams struct {
	fx.In
	Directory    *directory.Directory
	Geocoder     *geocode.Geocoder
	Reports      *reports.Reports   `optional:"true"`
	Crawls       *crawls.Crawls     `optional:"true"`
	Accounts     *accounts.Accounts `optional:"true"`
	Authenticate mcp.Authenticator  `optional:"true"`
	Config       Config             `optional:"true"`
	Log          *slog.Logger       `optional:"true"`
}

// built is the server with the authenticator it was built with.
type built struct {
	server *sdk.Server
	auth   mcp.Authenticator
}

func newServer(p serverParams) built {
	auth := p.Authenticate
	if auth == nil && p.Accounts != nil {
		acc := p.Accounts
		auth = func(ctx context.Context, key string) (account.User, error) {
			u, _, err := acc.Authenticate(ctx, key)
			return u, err
		}
	}
	s := mcp.New(mcp.Options{Directory: p.Directory, Geocoder: p.Geocoder, Reports: p.Reports, Crawls: p.Crawls, Authenticate: auth,
		Key: p.Config.Key, Version: p.Config.Version, Log: p.Log})
	return built{server: s, auth: auth}
}

// handlerParams are the handler's settings, optional in the graph.
type handlerParams struct {
	fx.In
	Options mcp.HTTPOptions `optional:"true"`
	Log     *slog.Logger    `optional:"true"`
}

func newHandler(b built, p handlerParams) http.Handler {
	o := p.Options
	if o.Authenticate == nil {
		o.Authenticate = b.auth
	}
	if o.Log == nil {
		o.Log = p.Log
	}
	return mcp.Handler(b.server, o)
}

// runStdio serves b over stdio from the app's start until the client
// closes stdin (then the app shuts down) or the app stops.
func runStdio(lc fx.Lifecycle, sd fx.Shutdowner, b built, log *slog.Logger) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			go func() {
				defer close(done)
				if err := mcp.Stdio(ctx, b.server); err != nil && ctx.Err() == nil {
					log.Info("mcp session ended", "err", err)
				}
				_ = sd.Shutdown()
			}()
			return nil
		},
		OnStop: func(stopCtx context.Context) error {
			cancel()
			select {
			case <-done:
			case <-stopCtx.Done():
			}
			return nil
		},
	})
}
