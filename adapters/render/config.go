package render

import (
	"context"
	"log/slog"
	"net"
	"time"

	"github.com/pinsight/pinsight/ports"
)

// Defaults of Config.
const (
	DefaultContexts          = 2
	DefaultNavigationTimeout = 15 * time.Second
	DefaultIdleTimeout       = 3 * time.Second
	DefaultTotal             = 20 * time.Second
	// DefaultMemoryMB caps the browser's process tree (proportional set
	// size, so shared pages are counted once): an idle headless Chromium
	// takes about 150 MB, a heavy page a few hundred more.
	DefaultMemoryMB = 1536
	// DefaultMaxHTML caps the serialised DOM kept (as the fetcher caps a
	// page's body).
	DefaultMaxHTML     = 5 << 20
	DefaultMaxRequests = 500
	// DefaultMaxScreenshot caps the viewport's JPEG: a bigger one is taken
	// again at a lower quality.
	DefaultMaxScreenshot = 300 << 10
	// DefaultMaxFullPage caps the full page's JPEG likewise.
	DefaultMaxFullPage = 2 << 20
)

// DefaultQuietPeriod is Config.QuietPeriod's default: how long, after the
// load event, no request may be in flight for the network to count as
// idle. Puppeteer's networkidle0 waits 500 ms (its networkidle2 lets two
// requests run); 250 ms with none in flight still takes the DOM a script
// builds from its fetches, since a request the page starts within the
// period (from a timer, say) starts it again, and it saves 150 ms a
// render over the 400 ms this package first waited.
const DefaultQuietPeriod = 250 * time.Millisecond

// Viewport is the size of the browser's window, in CSS pixels.
type Viewport struct {
	Width, Height int
	// Scale is the device scale factor (default 1).
	Scale float64
	// Mobile emulates a phone (touch, meta viewport).
	Mobile bool
}

// DefaultViewport is a desktop screen, as Lighthouse's desktop preset.
var DefaultViewport = Viewport{Width: 1350, Height: 940, Scale: 1}

// Config sets the renderer's browser, pool and limits. The zero value is
// usable: every field defaulted, Chromium looked up.
type Config struct {
	// Chromium is the browser's binary; "" looks it up: PINSIGHT_CHROMIUM,
	// then chromium-headless-shell, chrome-headless-shell, chromium,
	// chromium-browser, google-chrome, google-chrome-stable on PATH.
	Chromium string
	// Contexts is the most renders at once (default 2); others wait for a
	// turn as long as their context lets them.
	Contexts int
	// NavigationTimeout bounds the navigation until the load event
	// (default 15 s).
	NavigationTimeout time.Duration
	// IdleTimeout bounds the wait, after the load event, for the network
	// to go idle (no request in flight for QuietPeriod) (default 3 s).
	IdleTimeout time.Duration
	// QuietPeriod is how long no request may be in flight, after the load
	// event, for the network to count as idle (default
	// DefaultQuietPeriod, 250 ms): a page whose scripts wait longer than
	// that between two requests is taken before its last ones (raise it
	// for such sites).
	QuietPeriod time.Duration
	// Total bounds a whole render, from its turn in the pool to its
	// snapshot (default 20 s): a page that never settles is taken as it
	// stands, Settled false, within it.
	Total time.Duration
	// MemoryMB caps the browser's process tree (default DefaultMemoryMB):
	// over it, the browser is killed (the renders in flight fail, out of
	// memory) and the next render starts a new one.
	MemoryMB int
	// MaxHTML caps the serialised DOM (default 5 MiB).
	MaxHTML int
	// MaxRequests caps the requests and the console entries recorded
	// (default 500 each).
	MaxRequests int
	// Viewport is the window's size (default DefaultViewport).
	Viewport Viewport
	// Log receives the browser's restarts and failures (default
	// slog.Default()).
	Log *slog.Logger
}

func (c Config) withDefaults() Config {
	if c.Contexts <= 0 {
		c.Contexts = DefaultContexts
	}
	if c.NavigationTimeout <= 0 {
		c.NavigationTimeout = DefaultNavigationTimeout
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	if c.QuietPeriod <= 0 {
		c.QuietPeriod = DefaultQuietPeriod
	}
	if c.Total <= 0 {
		c.Total = DefaultTotal
	}
	if c.MemoryMB <= 0 {
		c.MemoryMB = DefaultMemoryMB
	}
	if c.MaxHTML <= 0 {
		c.MaxHTML = DefaultMaxHTML
	}
	if c.MaxRequests <= 0 {
		c.MaxRequests = DefaultMaxRequests
	}
	if c.Viewport.Width <= 0 || c.Viewport.Height <= 0 {
		c.Viewport = DefaultViewport
	}
	if c.Viewport.Scale <= 0 {
		c.Viewport.Scale = 1
	}
	if c.Log == nil {
		c.Log = slog.Default()
	}
	return c
}

// Guard is what the renderer needs of Pinsight's SSRF guard;
// *fetch.Fetcher implements it, so a render is refused exactly what a
// fetch is.
type Guard interface {
	// Check refuses a URL before any request (the scheme, the port, a
	// name or an address the guard refuses, looked up).
	Check(ctx context.Context, rawURL string) error
	// CheckURL refuses what the guard refuses of a URL alone.
	CheckURL(rawURL string) error
	// CheckHostPort refuses what the guard refuses of a host:port alone.
	CheckHostPort(hostPort string) error
	// Dial connects through the guard, asking admit (when not nil).
	Dial(ctx context.Context, network, addr string, admit ports.Admit) (net.Conn, error)
}
