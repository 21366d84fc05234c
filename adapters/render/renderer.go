package render

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"sync"

	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// ErrClosed is Render's answer once the renderer is closed.
var ErrClosed = errors.New("render: the renderer is closed")

// Renderer implements ports.Renderer with one headless Chromium, started
// on the first render and again after it crashed or went over its memory
// cap, and a pool of at most Config.Contexts renders at once, each in a
// browser context (an incognito profile) of its own.
type Renderer struct {
	cfg     Config
	guard   Guard
	path    string
	pathErr error
	slots   *turns

	// navigated, when not nil, is called once a render's navigation
	// answered (the tests crash the tab with it).
	navigated func(ctx context.Context)
	// traced, when not nil, is given each render's steps and their
	// durations once it ended, its browser context disposed of (the
	// benchmarks trace with it).
	traced func(phases []phase)

	mu       sync.Mutex
	b        *browser
	startErr error
	closed   bool

	// The tabs made ahead (at most Config.Contexts, see tab) and the
	// background work (making and disposing of tabs) Close waits for.
	spareMu     sync.Mutex
	spares      []*tab
	making      int
	spareClosed bool
	bg          background
}

// background counts goroutines that Close waits for; unlike a
// sync.WaitGroup, one may start while Close waits (a render that was in
// flight disposing of its tab).
type background struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to 0; nil while n is 0
}

// Add counts n more goroutines.
func (g *background) Add(n int) {
	g.mu.Lock()
	if g.n == 0 {
		g.idle = make(chan struct{})
	}
	g.n += n
	g.mu.Unlock()
}

// Done counts one goroutine less.
func (g *background) Done() {
	g.mu.Lock()
	if g.n--; g.n == 0 {
		close(g.idle)
	}
	g.mu.Unlock()
}

// Wait returns once no goroutine is counted.
func (g *background) Wait() {
	g.mu.Lock()
	idle := g.n > 0
	ch := g.idle
	g.mu.Unlock()
	if idle {
		<-ch
	}
}

// New returns a renderer for cfg (zero fields defaulted) whose every
// request goes through guard (a *fetch.Fetcher). The browser is not
// started: the first Render starts it. A missing binary is not an error
// here: Available reports it.
func New(cfg Config, guard Guard) (*Renderer, error) {
	if guard == nil {
		return nil, errors.New("render: a renderer needs the fetcher's guard")
	}
	cfg = cfg.withDefaults()
	r := &Renderer{cfg: cfg, guard: guard, slots: newTurns(cfg.Contexts)}
	if cfg.Chromium != "" {
		if r.path, r.pathErr = exec.LookPath(cfg.Chromium); r.pathErr != nil {
			r.pathErr = fmt.Errorf("%w (%v)", ports.ErrNoBrowser, r.pathErr)
		}
	} else {
		r.path, r.pathErr = findChromium()
	}
	return r, nil
}

// Available implements ports.Renderer: nil when a binary is found and the
// browser did not fail its last start; otherwise an error wrapping
// ports.ErrNoBrowser.
func (r *Renderer) Available() error {
	if r.pathErr != nil {
		return r.pathErr
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return fmt.Errorf("%w: %w", ports.ErrNoBrowser, ErrClosed)
	}
	return r.startErr
}

// Render implements ports.Renderer. rawURL is checked by the guard first
// (a refusal is a *webpage.FetchError, Refused, and nothing is started);
// the render then waits for a turn in the pool as long as ctx lets it
// (the waiting parties, opts.Party, served in turns: see turns), and from
// its turn it takes at most Config.Total. With no browser to run,
// the error wraps ports.ErrNoBrowser.
func (r *Renderer) Render(ctx context.Context, rawURL string, opts ports.RenderOptions, admit ports.Admit) (*webpage.Rendered, error) {
	if r.pathErr != nil {
		return nil, r.pathErr
	}
	if err := r.guard.Check(ctx, rawURL); err != nil {
		return nil, err
	}
	if !r.slots.take(ctx, opts.Party) {
		return nil, &webpage.FetchError{Reason: "no turn to render before the request ended", Transient: true, Err: ctx.Err()}
	}
	defer r.slots.give()
	b, err := r.browserNow()
	if err != nil {
		return nil, err
	}
	return r.renderOn(ctx, b, rawURL, opts, admit)
}

// browserNow returns the running browser, starting one when there is none
// or the last one died.
func (r *Renderer) browserNow() (*browser, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, ErrClosed
	}
	if r.b != nil && r.b.alive() {
		return r.b, nil
	}
	if r.b != nil {
		why := r.b.killedFor()
		if why == "" {
			why = "it crashed"
		}
		r.cfg.Log.Warn("render: restarting the browser", "reason", why)
		r.b.stop("restart")
		r.b = nil
	}
	b, err := r.startBrowser()
	r.startErr = err
	if err != nil {
		return nil, err
	}
	r.b = b
	return b, nil
}

// Close kills the browser and waits until its processes are gone. Renders
// in flight fail; later ones return ErrClosed.
func (r *Renderer) Close() error {
	r.dropSpares()
	r.mu.Lock()
	r.closed = true
	if r.b != nil {
		r.b.stop("closed")
		r.b = nil
	}
	r.mu.Unlock()
	r.bg.Wait() // the tabs being made or disposed of, on a browser now gone
	return nil
}

// Interface guard.
var _ ports.Renderer = (*Renderer)(nil)
