package ports

import (
	"context"
	"errors"

	"github.com/pinsight/pinsight/domain/webpage"
)

// ErrNoBrowser is Renderer.Available's answer when no browser can be
// started: the deployment has none installed, or it failed to start.
var ErrNoBrowser = errors.New("rendering needs Chromium: install it (Debian: apt-get install chromium-headless-shell, or chromium) or name it with --chromium")

// Renderer loads a page in a real browser, as a visitor and a search
// engine's second wave see it. Every network request the browser makes
// (the page, its sub-resources, redirects, fetches, websockets) goes
// through the same SSRF guard as PageFetcher, and through admit when it is
// not nil; what the guard refuses is recorded as a refused request and
// never reaches the network. Renders run in a bounded pool, each with hard
// deadlines and its own browser context.
type Renderer interface {
	// Render loads rawURL and returns the page as it rendered. A target
	// that answered at all is a success (Status says how); no answer, a
	// refused target, or a browser that crashed or ran out of memory is a
	// *webpage.FetchError whose reason says which. An error from admit is
	// returned as it is.
	Render(ctx context.Context, rawURL string, opts RenderOptions, admit Admit) (*webpage.Rendered, error)
	// Available reports whether renders can run now: nil, or an error
	// wrapping ErrNoBrowser saying what to install.
	Available() error
}

// RenderOptions tune one render.
type RenderOptions struct {
	// FullPage asks for a screenshot of the whole page besides the first
	// screen's.
	FullPage bool
	// NoScreenshot asks for no screenshot at all (FullPage then ignored),
	// for renders whose screenshots nothing keeps: a crawl's pages.
	NoScreenshot bool
	// Party names who the render is for (the user's id, "7"): a renderer whose
	// renders wait for a turn serves the waiting parties in turns, so one
	// party's backlog does not hold another's render. Empty is a party of
	// its own.
	Party string
}
