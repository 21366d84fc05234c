package render

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/pinsight/pinsight/adapters/internal/htmldoc"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// session is one render in flight.
type session struct {
	r       *Renderer
	b       *browser
	px      *proxy
	rec     *recorder
	key     string // the injected script's property
	start   time.Time
	hardEnd time.Time // the snapshot starts by then at the latest
	end     time.Time // Total's deadline
	target  target.ID

	// The render's steps as they ended, for Renderer.traced.
	marked time.Time
	phases []phase
}

// phase is one step of a render and how long it took.
type phase struct {
	name string
	took time.Duration
}

// mark ends the step name now.
func (s *session) mark(name string) { s.markAt(name, time.Now()) }

// markAt ends the step name at t.
func (s *session) markAt(name string, t time.Time) {
	if s.marked.IsZero() {
		s.marked = s.start
	}
	s.phases = append(s.phases, phase{name, t.Sub(s.marked)})
	s.marked = t
}

// snapshotReserve is the part of Total kept for the snapshot (DOM,
// timings, screenshots), at most a quarter of it.
func snapshotReserve(total time.Duration) time.Duration {
	return min(3*time.Second, total/4)
}

// renderOn renders rawURL on b, in a tab (a browser context of its own,
// with its own proxy) made ahead or now; the tab is disposed of once the
// result is known, in the background (Close waits for it).
func (r *Renderer) renderOn(parent context.Context, b *browser, rawURL string, opts ports.RenderOptions, admit ports.Admit) (*webpage.Rendered, error) {
	start := time.Now()
	s := &session{r: r, b: b, rec: newRecorder(r.cfg.MaxRequests), start: start, end: start.Add(r.cfg.Total)}
	s.hardEnd = s.end.Add(-snapshotReserve(r.cfg.Total))
	ctx, cancel := context.WithDeadline(parent, s.end)
	defer cancel()
	t, err := r.takeTab(ctx, b)
	if err != nil {
		if fe := (*webpage.FetchError)(nil); errors.As(err, &fe) {
			return nil, err
		}
		return nil, s.failure(ctx, err)
	}
	s.px, s.rec, s.key, s.target = t.px, t.rec, t.key, t.target
	defer r.dispose(t, s)
	s.mark("context") // the browser context, its proxy, its tab set up (or taken ready)
	t.px.bind(ctx, admit)
	t.rec.begin()
	actx, acancel := context.WithDeadline(t.ctx, s.end)
	defer acancel()
	actx, mcancel := mergeCancel(actx, parent)
	defer mcancel()

	navCtx, navCancel := context.WithDeadline(actx, minTime(start.Add(r.cfg.NavigationTimeout), s.hardEnd))
	nav, err := chromedp.Call(navCtx, page.Navigate, page.NavigateParams{URL: rawURL})
	navCancel()
	s.mark("navigate")
	if err == nil && nav.ErrorText == "" && nav.IsDownload {
		err = errors.New("the URL is a download")
	}
	if refused := s.mainRefusal(); refused != nil {
		return nil, refused
	}
	switch {
	case err != nil && errors.Is(err, context.DeadlineExceeded) && parent.Err() == nil && s.b.alive() && !s.crashed():
		return nil, &webpage.FetchError{Reason: "no response within " + r.cfg.NavigationTimeout.String(), Transient: true, Err: err}
	case err != nil:
		return nil, s.failure(actx, err)
	case nav.ErrorText != "":
		return nil, &webpage.FetchError{Reason: "the page could not be loaded (" + nav.ErrorText + ")",
			Transient: transientNetError(nav.ErrorText), Err: errors.New(nav.ErrorText)}
	}
	if r.navigated != nil {
		r.navigated(actx)
	}
	settled := s.wait(actx)
	if s.crashed() || !s.b.alive() {
		return nil, s.failure(actx, errors.New("the page's process is gone"))
	}
	out, err := s.snapshot(actx, opts)
	if err != nil {
		return nil, s.failure(actx, err)
	}
	out.Settled = settled
	if refused := s.mainRefusal(); refused != nil { // a script's navigation to a refused target
		return nil, refused
	}
	return out, nil
}

// dispose ends the render of s in t: its proxy serves nothing more from
// now on, and in the background the tab is closed, its browser context
// disposed of, then the proxy's port is let go (so no later render's
// proxy can have the port while the context may still use it).
func (r *Renderer) dispose(t *tab, s *session) {
	t.px.unbind()
	r.bg.Add(1)
	go func() {
		defer r.bg.Done()
		t.cancel()
		t.px.close()
		r.refill(s.b) // when the page never loaded
		s.mark("dispose")
		if r.traced != nil {
			r.traced(s.phases)
		}
	}()
}

// wait waits for the load event and then for the network to go idle,
// within their bounds; it reports whether the page settled.
func (s *session) wait(ctx context.Context) bool {
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	navEnd := minTime(s.start.Add(s.r.cfg.NavigationTimeout), s.hardEnd)
	var loadedAt time.Time
	for {
		loaded, inflight, quiet, crashed := s.rec.state()
		if crashed || !s.b.alive() {
			return false
		}
		now := time.Now()
		if loaded && loadedAt.IsZero() {
			loadedAt = now
			s.markAt("load", now)
			s.r.refill(s.b) // the next render's tab, while this one waits for the network
		}
		if loaded && inflight == 0 && quiet >= s.r.cfg.QuietPeriod {
			s.markAt("idle", now)
			return true
		}
		limit := navEnd
		if loaded {
			limit = minTime(loadedAt.Add(s.r.cfg.IdleTimeout), s.hardEnd)
		}
		if !now.Before(limit) {
			s.markAt("unsettled", now)
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-tick.C:
		}
	}
}

func (s *session) crashed() bool {
	_, _, _, crashed := s.rec.state()
	return crashed
}

// mainRefusal is the error of a main document the proxy refused (the
// guard's refusal, or admit's error as it is), nil when it was not.
func (s *session) mainRefusal() error {
	main := s.rec.mainRequest()
	if main == nil {
		return nil
	}
	for _, rf := range s.px.refused() {
		if !refusalMatches(rf, *main) {
			continue
		}
		if rf.admission != nil {
			return rf.admission
		}
		return &webpage.FetchError{Reason: refusedReason(rf.reason), Refused: true}
	}
	return nil
}

// failure is the *webpage.FetchError of a render that broke: the browser
// killed over its memory cap, crashed, the page's process crashed, or
// the time ran out.
func (s *session) failure(ctx context.Context, err error) error {
	if s.b.alive() && !s.crashed() {
		// A dying browser is noticed a moment after its calls fail.
		select {
		case <-s.b.lost:
		case <-time.After(300 * time.Millisecond):
		}
	}
	switch why := s.b.killedFor(); {
	case why != "" && why != "closed" && why != "restart":
		return &webpage.FetchError{Reason: why, Err: err}
	case why == "closed":
		return &webpage.FetchError{Reason: "the renderer was closed during the render", Err: errors.Join(ErrClosed, err)}
	case !s.b.alive():
		return &webpage.FetchError{Reason: "the browser crashed during the render", Transient: true, Err: err}
	case s.crashed():
		return &webpage.FetchError{Reason: s.b.crashReason(s.target), Err: err}
	case ctx.Err() != nil && time.Now().After(s.end.Add(-50*time.Millisecond)):
		return &webpage.FetchError{Reason: "the render took longer than " + s.r.cfg.Total.String(), Transient: true, Err: err}
	case ctx.Err() != nil:
		return &webpage.FetchError{Reason: "the render was cancelled", Err: err}
	}
	return &webpage.FetchError{Reason: "the browser failed the render", Transient: true, Err: err}
}

// refusedReason is the guard's reason as a render's refusal says it.
func refusedReason(reason string) string {
	if strings.HasPrefix(reason, "refused") {
		return reason
	}
	return "refused: " + reason
}

// transientNetError reports whether a browser's network error may pass.
func transientNetError(text string) bool {
	for _, e := range []string{"TIMED_OUT", "CONNECTION_RESET", "CONNECTION_CLOSED", "EMPTY_RESPONSE", "NETWORK_CHANGED"} {
		if strings.Contains(text, e) {
			return true
		}
	}
	return false
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func nonce() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// parseDocument parses the serialised DOM as the fetcher parses a page.
var parseDocument = htmldoc.Parse
