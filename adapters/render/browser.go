package render

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/pinsight/pinsight/ports"
)

// startTimeout bounds the browser's start, to its first blank tab.
const startTimeout = 30 * time.Second

// watchEvery is how often the browser's memory is read.
const watchEvery = 300 * time.Millisecond

// overReadings is how many readings in a row over the cap kill the
// browser: one reading can catch memory on its way back (a tab that just
// crashed, its pages not yet unmapped), two cannot.
const overReadings = 2

// browser is one Chromium process and what it needs: its chromedp
// context, the proxy of its own traffic (which refuses everything) and the
// watchdog of its memory.
type browser struct {
	ctx      context.Context // the chromedp context owning the process
	cancel   context.CancelFunc
	alloc    context.CancelFunc
	own      *proxy // the default context's proxy: refuses all
	pid      int
	dir      string          // the profile: --user-data-dir=dir marks every process of the browser
	lost     <-chan struct{} // closed when the connection (the process) is gone
	stopOnce sync.Once
	stopped  chan struct{}

	mu      sync.Mutex
	killed  string               // why Pinsight killed it; "" when it died by itself or lives
	crashes map[target.ID]string // the termination status of the tabs that crashed
}

// browserNames are the binaries findChromium looks for, best first: the
// headless shell (Debian's chromium-headless-shell, Chromium's old
// headless mode without the browser's windows and WebUI) renders the same
// pages in about 60 % of the full browser's memory and processor time
// (docs/rendering.md, "What it costs"), then the full browsers.
var browserNames = []string{"chromium-headless-shell", "chrome-headless-shell", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// findChromium is the browser's binary: PINSIGHT_CHROMIUM, then
// browserNames on PATH.
func findChromium() (string, error) {
	if p := os.Getenv("PINSIGHT_CHROMIUM"); p != "" {
		return exec.LookPath(p)
	}
	for _, name := range browserNames {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w (none of %s on PATH)", ports.ErrNoBrowser, strings.Join(browserNames, ", "))
}

// flags are the browser's switches besides chromedp's defaults (headless,
// no first run, no background networking, no extensions, ...).
func (r *Renderer) flags(own *proxy) []chromedp.ExecAllocatorOption {
	v := r.cfg.Viewport
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(r.path),
		chromedp.DisableGPU,
		// Every request of the default browser context goes to own, which
		// refuses it; each render's context has a proxy of its own. The
		// bypass list "<-loopback>" removes Chromium's implicit bypass of
		// localhost, so loopback goes through the proxy too.
		chromedp.ProxyServer(own.url()),
		chromedp.Flag("proxy-bypass-list", "<-loopback>"),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("mute-audio", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("deny-permission-prompts", true),
		chromedp.Flag("force-webrtc-ip-handling-policy", "disable_non_proxied_udp"),
		chromedp.Flag("webrtc-ip-handling-policy", "disable_non_proxied_udp"),
		// Frames stay in their page's process, so their requests reach the
		// render's events; HTTPS upgrades would load another URL than asked.
		// Each render's context opens a window, and Chromium 13x+ preloads
		// the WebUI omnibox popups (chrome://omnibox-popup.top-chrome/, some
		// 340 scripts in a renderer of their own) into every window: about
		// 2 s of processor time a render for a popup a headless browser
		// never shows, so those features are off.
		chromedp.Flag("disable-site-isolation-trials", true),
		chromedp.Flag("disable-features", "Translate,BlinkGenPropertyTrees,IsolateOrigins,site-per-process,HttpsUpgrades,"+
			"MediaRouter,DialMediaRouteProvider,OptimizationHints,AutofillServerCommunication,InterestFeedContentSuggestions,"+
			"WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup"),
		// A page's JavaScript heap is capped below the process tree's cap:
		// over it the page's renderer dies (out of memory), not the browser.
		chromedp.Flag("js-flags", "--max-old-space-size="+strconv.Itoa(r.cfg.MemoryMB/2)),
		chromedp.WindowSize(v.Width, v.Height),
	)
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // Chromium's sandbox refuses to run as root
	}
	return opts
}

// startBrowser starts Chromium and waits for its first tab.
func (r *Renderer) startBrowser() (*browser, error) {
	dir, err := os.MkdirTemp("", "pinsight-render-")
	if err != nil {
		return nil, fmt.Errorf("%w: no profile directory: %v", ports.ErrNoBrowser, err)
	}
	own, err := newProxy(context.Background(), r.guard, refuseAll, nil)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%w: the browser's proxy could not listen: %v", ports.ErrNoBrowser, err)
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), append(r.flags(own), chromedp.UserDataDir(dir))...)
	bctx, bcancel := chromedp.NewContext(actx,
		chromedp.WithLogf(func(string, ...any) {}),
		chromedp.WithErrorf(func(f string, a ...any) { r.cfg.Log.Debug("render: chromedp", "error", fmt.Sprintf(f, a...)) }))
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(bctx) }()
	select {
	case err = <-started:
	case <-time.After(startTimeout):
		err = errors.New("no first tab within " + startTimeout.String())
	}
	c := chromedp.FromContext(bctx)
	if err == nil && (c.Browser == nil || c.Browser.Process() == nil) {
		err = errors.New("no browser process")
	}
	if err != nil {
		bcancel()
		acancel()
		own.close()
		killAllUsing("--user-data-dir="+dir, 2*time.Second)
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%w: %s did not start: %v", ports.ErrNoBrowser, r.path, err)
	}
	// The binary may be a wrapper script that runs the browser as its
	// child (Debian's chromium-headless-shell does): the browser is the
	// process of the tree holding the profile that is no child type.
	pid := browserProcess(c.Browser.Process().Pid, "--user-data-dir="+dir)
	b := &browser{ctx: bctx, cancel: bcancel, alloc: acancel, own: own, pid: pid, dir: dir,
		lost: c.Browser.LostConnection, stopped: make(chan struct{}), crashes: map[target.ID]string{}}
	_ = chromedp.ListenBrowser(bctx, func(ev any) {
		if e, ok := ev.(*target.EventTargetCrashed); ok {
			b.mu.Lock()
			if len(b.crashes) < 1000 {
				b.crashes[e.TargetID] = e.Status + " " + strconv.FormatInt(e.ErrorCode, 10)
			}
			b.mu.Unlock()
		}
	})
	go b.watch(int64(r.cfg.MemoryMB) << 20)
	return b, nil
}

// watch kills the browser when its process tree's memory is over limit
// bytes for overReadings readings in a row.
func (b *browser) watch(limit int64) {
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	over := 0 // readings in a row over limit
	for {
		select {
		case <-b.lost:
			return
		case <-b.stopped:
			return
		case <-t.C:
			m := b.memory(limit)
			if m <= limit {
				over = 0
				continue
			}
			if over++; over >= overReadings {
				b.kill(fmt.Sprintf("the browser went over its memory cap (%d MB, it used %d MB)", limit>>20, m>>20))
				return
			}
		}
	}
}

// alive reports whether the browser can take a render.
func (b *browser) alive() bool {
	select {
	case <-b.lost:
		return false
	case <-b.stopped:
		return false
	default:
		return true
	}
}

// memory is what the browser's process tree takes, in bytes, its
// processes on their way out not counted: the sum of their resident sets
// when that is at most limit (the resident sets count shared pages in
// full, so their sum bounds the proportional set sizes' from above), else
// the sum of their proportional set sizes.
// The resident set is read from statm, cheaply; the proportional set size
// walks the page tables (smaps_rollup), about 30 ms of kernel time for a
// browser's tree, too much to pay every watchEvery.
func (b *browser) memory(limit int64) int64 {
	if !hasArg(b.pid, b.marker()) { // gone: its pid may be another program's now
		return 0
	}
	tree := slices.DeleteFunc(descendants(b.pid), exiting)
	var rss int64
	for _, pid := range tree {
		rss += residentSet(pid)
	}
	if rss <= limit {
		return rss
	}
	var total int64
	for _, pid := range tree {
		total += processMemory(pid)
	}
	return total
}

func (b *browser) marker() string { return "--user-data-dir=" + b.dir }

// kill kills every process of the browser for reason (the first reason is
// kept). Processes are found by their profile argument, so a pid reused
// by another program is never killed.
func (b *browser) kill(reason string) {
	b.mu.Lock()
	if b.killed == "" {
		b.killed = reason
	}
	b.mu.Unlock()
	killUsing(b.marker())
}

// crashReason says why the tab id crashed, as its termination status
// tells.
func (b *browser) crashReason(id target.ID) string {
	b.mu.Lock()
	status := b.crashes[id]
	delete(b.crashes, id)
	b.mu.Unlock()
	switch {
	case strings.HasPrefix(status, "oom"):
		return "the page ran out of memory (the browser killed its tab)"
	case status == "":
		return "the page crashed its tab (out of memory, or a fault of the browser)"
	}
	return "the page crashed its tab (out of memory, or a fault of the browser; status " + status + ")"
}

// killedFor is why Pinsight killed the browser, "" when it did not.
func (b *browser) killedFor() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.killed
}

// stop kills the browser and waits until its process is reaped, its
// leftovers (children that outlived it) are killed and its profile is
// removed.
func (b *browser) stop(reason string) {
	b.stopOnce.Do(func() {
		b.kill(reason)
		close(b.stopped)
		b.cancel() // waits until the process is reaped
		b.alloc()
		killAllUsing(b.marker(), 3*time.Second)
		for i := 0; i < 50; i++ {
			if os.RemoveAll(b.dir) == nil {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		b.own.close()
	})
}
