package render

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
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

// renderOn renders rawURL on b, in a browser context of its own whose
// proxy is px.
func (r *Renderer) renderOn(parent context.Context, b *browser, rawURL string, opts ports.RenderOptions, admit ports.Admit) (*webpage.Rendered, error) {
	start := time.Now()
	s := &session{r: r, b: b, rec: newRecorder(r.cfg.MaxRequests), key: "__pinsight_" + nonce(), start: start,
		end: start.Add(r.cfg.Total)}
	s.hardEnd = s.end.Add(-snapshotReserve(r.cfg.Total))
	if r.traced != nil {
		defer func() { r.traced(s.phases) }() // last: after the disposal
	}
	ctx, cancel := context.WithDeadline(parent, s.end)
	defer cancel()
	px, err := newProxy(ctx, r.guard, admit, b.fromBrowser)
	if err != nil {
		return nil, &webpage.FetchError{Reason: "the renderer's proxy could not listen", Err: err}
	}
	defer px.close()
	s.px = px
	s.mark("proxy")
	tctx, tcancel := chromedp.NewContext(b.ctx,
		chromedp.WithNewBrowserContext(func(p *target.CreateBrowserContextParams) {
			p.ProxyServer = px.url()
			p.ProxyBypassList = "<-loopback>"
		}),
		chromedp.WithListener(s.rec.event))
	defer func() {
		tcancel() // closes the tab and disposes of its browser context
		s.mark("dispose")
	}()
	actx, acancel := context.WithDeadline(tctx, s.end)
	defer acancel()
	actx, mcancel := mergeCancel(actx, parent)
	defer mcancel()

	if err := chromedp.Do(actx, chromedp.Func(s.setup)); err != nil {
		return nil, s.failure(actx, err)
	}
	s.mark("context") // the browser context, its tab, the tab's setup
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

// setup prepares the new tab before the navigation: the timing script,
// no service workers, no downloads, the viewport.
func (s *session) setup(ctx context.Context, t *chromedp.Target) error {
	s.target = t.TargetID
	tree, err := cdp.Call(ctx, t, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return err
	}
	if tree.FrameTree != nil && tree.FrameTree.Frame != nil {
		s.rec.setMain(tree.FrameTree.Frame.ID)
	}
	if _, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: strings.ReplaceAll(timingJS, "__PINSIGHT_KEY__", s.key)}); err != nil {
		return err
	}
	if _, err := cdp.Call(ctx, t, network.SetBypassServiceWorker, network.SetBypassServiceWorkerParams{Bypass: true}); err != nil {
		return err
	}
	v := s.r.cfg.Viewport
	if _, err := cdp.Call(ctx, t, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: int64(v.Width), Height: int64(v.Height), DeviceScaleFactor: v.Scale, Mobile: v.Mobile}); err != nil {
		return err
	}
	c := chromedp.FromContext(ctx)
	_, err = cdp.Call(ctx, c.Browser, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorDeny, BrowserContextID: c.BrowserContextID})
	return err
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
