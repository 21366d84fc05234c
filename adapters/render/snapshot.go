package render

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

var (
	//go:embed js/timing.js
	timingJS string
	//go:embed js/snapshot.js
	snapshotJS string
)

// snapshotData is what snapshot.js returns.
type snapshotData struct {
	URL     string  `json:"url"`
	Doctype string  `json:"doctype"`
	HTML    string  `json:"html"`
	Cut     bool    `json:"cut"`
	TTFB    float64 `json:"ttfb"`
	FCP     float64 `json:"fcp"`
	LCP     float64 `json:"lcp"`
	LCPEl   string  `json:"lcpEl"`
	CLS     float64 `json:"cls"`
	TBT     float64 `json:"tbt"`
	Nodes   int     `json:"nodes"`
}

// Screenshot bounds.
const (
	screenshotQuality = 70
	maxFullPageHeight = 16384 // CSS pixels of a full-page screenshot
)

// snapshot takes the page as it stands: DOM, timings, requests, console,
// screenshots.
func (s *session) snapshot(ctx context.Context, opts ports.RenderOptions) (*webpage.Rendered, error) {
	data, err := s.evaluate(ctx)
	if err != nil {
		return nil, err
	}
	s.mark("evaluate") // the DOM serialised, the lab metrics read
	out := &webpage.Rendered{URL: data.URL}
	html := []byte(data.Doctype + data.HTML)
	if len(html) > s.r.cfg.MaxHTML {
		html = cutUTF8(html, s.r.cfg.MaxHTML)
	}
	out.HTML = html
	out.Document = parseDocument(html)
	s.mark("parse")
	out.Timing = webpage.Timing{TTFB: ms(data.TTFB), FCP: ms(data.FCP), LCP: ms(data.LCP), LCPElement: data.LCPEl,
		CLS: data.CLS, TBT: ms(data.TBT), DOMNodes: data.Nodes}
	shotCtx, cancel := context.WithDeadline(ctx, s.end)
	defer cancel()
	if !opts.NoScreenshot {
		out.Screenshot = s.screenshot(shotCtx, false)
		s.mark("screenshot")
		if opts.FullPage {
			out.FullPage = s.screenshot(shotCtx, true)
			s.mark("fullpage")
		}
	}
	out.Elapsed = time.Since(s.start)
	reqs, omitted, console := s.rec.result()
	out.Requests = reconcile(reqs, s.px.refused())
	out.RequestsOmitted = omitted
	if len(out.Requests) > s.r.cfg.MaxRequests {
		out.RequestsOmitted += len(out.Requests) - s.r.cfg.MaxRequests
		out.Requests = out.Requests[:s.r.cfg.MaxRequests]
	}
	out.Console = console
	if main := s.rec.mainRequest(); main != nil {
		out.Status = main.Status
	}
	for _, q := range out.Requests {
		out.Timing.Bytes += q.Bytes
	}
	return out, nil
}

// evaluate runs snapshot.js; a page whose script keeps the tab busy has
// its script terminated, and the snapshot is tried again.
func (s *session) evaluate(ctx context.Context) (*snapshotData, error) {
	expr := strings.ReplaceAll(strings.ReplaceAll(snapshotJS, "__PINSIGHT_KEY__", s.key),
		"__PINSIGHT_MAX__", strconv.Itoa(s.r.cfg.MaxHTML))
	try := func(d time.Duration) (*snapshotData, error) {
		tctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		res, err := chromedp.Call(tctx, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, ReturnByValue: ptr(true), Silent: ptr(true)})
		if err != nil {
			return nil, err
		}
		if res.ExceptionDetails != nil || res.Result == nil {
			return nil, errors.New("the snapshot script failed")
		}
		var data snapshotData
		if err := json.Unmarshal(res.Result.Value, &data); err != nil {
			return nil, err
		}
		return &data, nil
	}
	left := time.Until(s.end)
	data, err := try(left / 2)
	if err == nil || ctx.Err() != nil {
		return data, err
	}
	// The page's own script holds the tab: stop it and try again.
	tctx, cancel := context.WithTimeout(ctx, time.Second)
	_, _ = chromedp.Call(tctx, runtime.TerminateExecution, cdp.Empty{})
	cancel()
	return try(time.Until(s.end) - 200*time.Millisecond)
}

// screenshot takes a JPEG of the viewport, or of the whole page (at most
// maxFullPageHeight high), at a lower quality while it is over its cap;
// nil when it cannot be taken within it.
func (s *session) screenshot(ctx context.Context, full bool) []byte {
	limit := DefaultMaxScreenshot
	p := page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatJpeg, OptimizeForSpeed: ptr(true)}
	if full {
		limit = DefaultMaxFullPage
		m, err := chromedp.Call(ctx, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil || m.CSSContentSize == nil {
			return nil
		}
		w, h := m.CSSContentSize.Width, min(m.CSSContentSize.Height, maxFullPageHeight)
		p.Clip = &page.Viewport{X: 0, Y: 0, Width: w, Height: h, Scale: 1}
		p.CaptureBeyondViewport = ptr(true)
	}
	for _, q := range []int64{screenshotQuality, 50, 30, 15} {
		p.Quality = ptr(q)
		res, err := chromedp.Call(ctx, page.CaptureScreenshot, p)
		if err != nil {
			return nil
		}
		if len(res.Data) <= limit {
			return res.Data
		}
	}
	return nil
}

// reconcile marks the requests the proxy refused (by URL for a plain
// request, by host:port for a tunnel) and adds the refusals the browser
// did not report as requests (a preconnect, say).
func reconcile(reqs []webpage.Request, refs []refusal) []webpage.Request {
	seen := map[string]bool{}
	for _, rf := range refs {
		matched := false
		for i := range reqs {
			switch {
			case refusalMatches(rf, reqs[i]):
				reqs[i].Refused, reqs[i].Failed, reqs[i].Status, reqs[i].Bytes = true, refusedReason(rf.reason), 0, 0
				matched = true
			case reqs[i].Refused && sameTarget(rf, reqs[i]):
				matched = true // the browser tried it again
			}
		}
		if !matched && !seen[rf.target] {
			seen[rf.target] = true
			u := rf.target
			if !strings.Contains(u, "://") {
				u = "https://" + u // a tunnel's host:port
			}
			reqs = append(reqs, webpage.Request{URL: u, Type: "other", Refused: true, Failed: refusedReason(rf.reason)})
		}
	}
	for i := range reqs {
		if scheme, _, ok := strings.Cut(reqs[i].URL, ":"); ok && !reqs[i].Refused && !loadable(strings.ToLower(scheme)) {
			reqs[i].Refused, reqs[i].Status = true, 0
			reqs[i].Failed = "refused: only http and https URLs are loaded"
		}
	}
	return reqs
}

// refusalMatches reports whether rf is the refusal of q: the same URL (a
// plain request), or the same host:port with no answer of its own (a
// tunnel).
func refusalMatches(rf refusal, q webpage.Request) bool {
	if q.Refused {
		return false
	}
	if strings.Contains(rf.target, "://") {
		return q.URL == rf.target || (q.Status == 403 && hostPortOf(q.URL) == hostPortOf(rf.target) &&
			strings.HasPrefix(q.URL, "http:"))
	}
	return hostPortOf(q.URL) == rf.target && (q.Status == 0 || q.Failed != "") && !strings.HasPrefix(q.URL, "http:")
}

// sameTarget reports whether q asked for rf's target (its URL, or its
// host:port for a tunnel).
func sameTarget(rf refusal, q webpage.Request) bool {
	if strings.Contains(rf.target, "://") {
		return q.URL == rf.target
	}
	return hostPortOf(q.URL) == rf.target
}

// loadable reports whether a request of the scheme may be made (or needs
// no network).
func loadable(scheme string) bool {
	switch scheme {
	case "http", "https", "ws", "wss", "data", "blob", "about":
		return true
	}
	return false
}

func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

func ptr[T any](v T) *T { return &v }

// cutUTF8 is b cut to at most n bytes, not inside a character.
func cutUTF8(b []byte, n int) []byte {
	b = b[:n]
	for len(b) > 0 {
		if r, size := utf8.DecodeLastRune(b); r != utf8.RuneError || size > 1 {
			break
		}
		b = b[:len(b)-1]
	}
	return b
}
