package render

import (
	"context"
	"strings"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/pinsight/pinsight/domain/webpage"
)

// tab is what one render runs in, used once: a fresh browser context (an
// incognito profile) whose every request goes to px, its one tab, set up
// (the timing script under key, no service workers, no downloads, the
// viewport) and blank, and the recorder of the tab's events. A render
// takes one made ahead (a spare) when there is one: making it (about a
// third of a small page's render) is then off the render's way.
type tab struct {
	b      *browser
	px     *proxy // refuses everything until bound to the render
	rec    *recorder
	key    string // the timing script's property
	ctx    context.Context
	cancel context.CancelFunc // closes the tab and disposes of its browser context
	target target.ID
}

// tabSetupTimeout bounds the making of a spare tab.
const tabSetupTimeout = 15 * time.Second

// newTab makes a tab on b, within ctx (its deadline and its end bound the
// making only, not the tab).
func (r *Renderer) newTab(ctx context.Context, b *browser) (*tab, error) {
	px, err := newProxy(context.Background(), r.guard, refuseAll, b.fromBrowser)
	if err != nil {
		return nil, &webpage.FetchError{Reason: "the renderer's proxy could not listen", Err: err}
	}
	t := &tab{b: b, px: px, rec: newRecorder(r.cfg.MaxRequests), key: "__pinsight_" + nonce()}
	t.ctx, t.cancel = chromedp.NewContext(b.ctx,
		chromedp.WithNewBrowserContext(func(p *target.CreateBrowserContextParams) {
			p.ProxyServer = px.url()
			p.ProxyBypassList = "<-loopback>"
		}),
		chromedp.WithListener(t.rec.event))
	// The first action runs on the tab's own context: chromedp ties the
	// tab's event loop to it. ctx ending stops the making by closing the
	// tab.
	stop := context.AfterFunc(ctx, t.cancel)
	err = chromedp.Do(t.ctx, chromedp.Func(func(ctx context.Context, ct *chromedp.Target) error {
		return r.setup(ctx, t, ct)
	}))
	if !stop() && err == nil {
		err = ctx.Err()
	}
	if err != nil {
		t.cancel()
		px.close()
		return nil, err
	}
	return t, nil
}

// setup prepares the new tab before the navigation: the timing script,
// no service workers, no downloads, the viewport.
func (r *Renderer) setup(ctx context.Context, t *tab, ct *chromedp.Target) error {
	t.target = ct.TargetID
	tree, err := cdp.Call(ctx, ct, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return err
	}
	if tree.FrameTree != nil && tree.FrameTree.Frame != nil {
		t.rec.setMain(tree.FrameTree.Frame.ID)
	}
	if _, err := cdp.Call(ctx, ct, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: strings.ReplaceAll(timingJS, "__PINSIGHT_KEY__", t.key)}); err != nil {
		return err
	}
	if _, err := cdp.Call(ctx, ct, network.SetBypassServiceWorker, network.SetBypassServiceWorkerParams{Bypass: true}); err != nil {
		return err
	}
	v := r.cfg.Viewport
	if _, err := cdp.Call(ctx, ct, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: int64(v.Width), Height: int64(v.Height), DeviceScaleFactor: v.Scale, Mobile: v.Mobile}); err != nil {
		return err
	}
	c := chromedp.FromContext(ctx)
	_, err = cdp.Call(ctx, c.Browser, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorDeny, BrowserContextID: c.BrowserContextID})
	return err
}

// takeTab returns a spare tab of b, or makes one within ctx. (The spare
// of the next render is made once this one's page loaded, see wait: until
// then the making would slow this render down.)
func (r *Renderer) takeTab(ctx context.Context, b *browser) (*tab, error) {
	r.spareMu.Lock()
	var t *tab
	for len(r.spares) > 0 && t == nil {
		t, r.spares = r.spares[0], r.spares[1:]
		if t.b != b || !b.alive() || t.rec.isCrashed() {
			r.discard(t)
			t = nil
		}
	}
	r.spareMu.Unlock()
	if t != nil {
		return t, nil
	}
	return r.newTab(ctx, b)
}

// refill makes spare tabs on b, in the background, up to one for each of
// the pool's turns.
func (r *Renderer) refill(b *browser) {
	r.spareMu.Lock()
	defer r.spareMu.Unlock()
	if r.spareClosed || !b.alive() || len(r.spares)+r.making >= r.cfg.Contexts {
		return
	}
	r.making++
	r.bg.Add(1)
	go func() {
		defer r.bg.Done()
		ctx, cancel := context.WithTimeout(b.ctx, tabSetupTimeout)
		t, err := r.newTab(ctx, b)
		cancel()
		r.spareMu.Lock()
		defer r.spareMu.Unlock()
		r.making--
		switch {
		case err != nil:
			if b.alive() {
				r.cfg.Log.Debug("render: no spare tab", "error", err)
			}
		case r.spareClosed || !b.alive():
			r.discard(t)
		default:
			r.spares = append(r.spares, t)
		}
	}()
}

// discard disposes of a tab no render will use, in the background.
func (r *Renderer) discard(t *tab) {
	t.px.unbind()
	r.bg.Add(1)
	go func() {
		defer r.bg.Done()
		t.cancel()
		t.px.close()
	}()
}

// dropSpares disposes of the spare tabs and makes no more (Close).
func (r *Renderer) dropSpares() {
	r.spareMu.Lock()
	r.spareClosed = true
	spares := r.spares
	r.spares = nil
	r.spareMu.Unlock()
	for _, t := range spares {
		r.discard(t)
	}
}
