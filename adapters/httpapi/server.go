package httpapi

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
)

// Config holds the HTTP server settings.
type Config struct {
	Addr              string                // listen address, default ":8080"
	ReadHeaderTimeout time.Duration         // default 5 s
	ReadTimeout       time.Duration         // default 30 s
	WriteTimeout      time.Duration         // default 60 s; above the analysis deadline
	IdleTimeout       time.Duration         // default 120 s
	MaxHeaderBytes    int                   // default 16 KiB: headers and URL together (431)
	MaxURLBytes       int                   // default 8 KiB (414); negative: no cap
	MaxQueryParams    int                   // default 50 (400); negative: no cap
	RateLimits        middleware.RateLimits // quotas; zero limits disable them
	CORSOrigins       []string              // origins allowed on the site-analysis API

	// MaxConcurrentRequests bounds the requests served at once (503 with
	// Retry-After beyond); default 1024, negative: no cap.
	MaxConcurrentRequests int

	// MetricsAddr, when set, is the address of a listener of its own that
	// serves GET /metrics, and Addr does not serve it: bind it to a private
	// address. Empty: /metrics is served on Addr.
	MetricsAddr string
}

func (c Config) withDefaults() Config {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	if c.Addr == "" {
		c.Addr = ":8080"
	}
	def(&c.ReadHeaderTimeout, 5*time.Second)
	def(&c.ReadTimeout, 30*time.Second)
	def(&c.WriteTimeout, 60*time.Second)
	def(&c.IdleTimeout, 120*time.Second)
	if c.MaxHeaderBytes <= 0 {
		c.MaxHeaderBytes = middleware.DefaultMaxHeaderBytes
	}
	return c
}

// RequestLimits gathers the limits of a server configuration, defaults
// applied, for middleware.Options.Limits.
func (c Config) RequestLimits() middleware.RequestLimits {
	c = c.withDefaults()
	return middleware.RequestLimits{
		MaxURLBytes: c.MaxURLBytes, MaxQueryParams: c.MaxQueryParams,
		MaxHeaderBytes: c.MaxHeaderBytes, MaxConcurrent: c.MaxConcurrentRequests,
	}
}

// Server is the HTTP server with its listener, started and stopped
// explicitly (fx hooks call Start and Stop).
type Server struct {
	srv *http.Server
	ln  net.Listener
	log *slog.Logger
}

// NewServer returns a server for handler; nothing listens until Start.
func NewServer(cfg Config, handler http.Handler, log *slog.Logger) *Server {
	cfg = cfg.withDefaults()
	return &Server{log: log, srv: &http.Server{
		Addr: cfg.Addr, Handler: handler,
		ReadHeaderTimeout: cfg.ReadHeaderTimeout, ReadTimeout: cfg.ReadTimeout,
		WriteTimeout: cfg.WriteTimeout, IdleTimeout: cfg.IdleTimeout, MaxHeaderBytes: cfg.MaxHeaderBytes,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}}
}

// Start listens (failing fast when the address is taken) and serves in the
// background.
func (s *Server) Start(context.Context) error {
	ln, err := net.Listen("tcp", s.srv.Addr)
	if err != nil {
		return err
	}
	s.ln = ln
	s.log.Info("listening", "addr", ln.Addr().String())
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("server stopped", "err", err)
		}
	}()
	return nil
}

// Addr returns the address actually listened on (useful with port 0).
func (s *Server) Addr() string {
	if s.ln == nil {
		return s.srv.Addr
	}
	return s.ln.Addr().String()
}

// Stop shuts down gracefully: no new connections, in-flight requests finish
// until ctx expires.
func (s *Server) Stop(ctx context.Context) error {
	s.log.Info("shutting down")
	return s.srv.Shutdown(ctx)
}
