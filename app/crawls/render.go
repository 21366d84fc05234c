package crawls

import (
	"context"
	"strconv"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// RenderQuota is the daily quota of rendered pages that rendered crawls
// share with rendered analyses (reports.Analyser implements it): a
// rendered crawl charges its max_pages when it is accepted, and gives
// back the pages it did not crawl when it ends, as with its page quota.
type RenderQuota interface {
	// RenderDailyLimit is the quota (not Enabled: none).
	RenderDailyLimit() ratelimit.Limit
	// ChargeRenders takes n renders of user's quota, all or none,
	// answering how long until that charge is all back by itself (zero:
	// nothing charged); denied, a *reports.QuotaError (fault.RateLimited).
	ChargeRenders(ctx context.Context, user int64, n int) (time.Duration, error)
	// ReturnRenders gives back up to n renders of the charge that is all
	// back by until, once per receipt (failures are logged).
	ReturnRenders(ctx context.Context, user int64, n int, until time.Time, receipt string)
}

// renderSetting checks a crawl's render setting against what this
// server can do: render on needs a renderer that can run now (else a 422
// on render naming what to install); auto without one crawls the HTML
// the server sent (each page says why). A rendered crawl may ask for at
// most the daily quota of renders (a 422 on max_pages).
func (cs *Crawls) renderSetting(s crawl.Settings) error {
	if s.Render == pagecheck.RenderOn {
		if cs.cfg.Renderer == nil {
			return report.Invalid("render", ports.ErrNoBrowser.Error())
		}
		if err := cs.cfg.Renderer.Available(); err != nil {
			return report.Invalid("render", "is unavailable: "+err.Error())
		}
	}
	if !s.Renders() || cs.cfg.Renders == nil {
		return nil
	}
	if l := cs.cfg.Renders.RenderDailyLimit(); l.Enabled() && s.MaxPages > l.Requests {
		return report.Invalid("max_pages", "must be at most "+strconv.Itoa(l.Requests)+" for a rendered crawl, your daily quota of rendered pages")
	}
	return nil
}

// admitRenders charges a rendered crawl's max_pages to its user's daily
// quota of renders, saying when the charge is all back (zero: nothing
// charged, the crawl does not render or no quota is kept).
func (cs *Crawls) admitRenders(ctx context.Context, userID int64, s crawl.Settings) (time.Time, error) {
	if !s.Renders() || cs.cfg.Renders == nil {
		return time.Time{}, nil
	}
	reset, err := cs.cfg.Renders.ChargeRenders(ctx, userID, s.MaxPages)
	if err != nil || reset <= 0 {
		return time.Time{}, err
	}
	return cs.clock().Add(reset), nil
}

// returnRenders gives back n of the renders rendered crawl c was charged
// for, once per receipt.
func (cs *Crawls) returnRenders(ctx context.Context, c crawl.Crawl, n int, receipt string) {
	if cs.cfg.Renders == nil || n <= 0 || c.RenderQuotaUntil.IsZero() || !c.RenderQuotaUntil.After(cs.clock()) {
		return
	}
	cs.cfg.Renders.ReturnRenders(context.WithoutCancel(ctx), c.UserID, n, c.RenderQuotaUntil, receipt)
}

// rendered is the render of one audited page: its analysis (the rendered
// DOM's when a browser rendered it, the served HTML's otherwise, saying
// why) and, when rendered, the rendered page to read its facts from.
type rendered struct {
	analysis pagecheck.Analysis
	page     *webpage.Fetched // nil when not rendered
}

// render decides whether the crawl renders the page fetched as f (its
// render mode: pagecheck.RenderWanted) and renders it then, in a turn of
// the crawl's renders (at most its concurrency at once) and the
// renderer's pool. raw is the analysis of the served HTML. A render that
// fails keeps raw, saying why; ok is false when ctx ended meanwhile (the
// run stopped: the URL is not recorded and is fetched again later).
func (r *run) render(ctx context.Context, f *webpage.Fetched, raw pagecheck.Analysis) (out rendered, ok bool) {
	need, reason := pagecheck.RenderWanted(r.c.Settings.Render, f)
	switch {
	case reason == "":
		return rendered{analysis: raw}, true
	case !need:
		return rendered{analysis: pagecheck.NotRendered(raw, reason)}, true
	}
	rd := r.cs.cfg.Renderer
	if rd == nil || rd.Available() != nil {
		return rendered{analysis: pagecheck.NotRendered(raw, pagecheck.RenderUnavailable)}, true
	}
	select {
	case r.renders <- struct{}{}:
	case <-ctx.Done():
		return rendered{}, false
	}
	// The raw fetch took the crawl's pause for this page; the browser's
	// requests are guarded, not paced again.
	// A crawl keeps no screenshots of its pages: it asks for none.
	page, err := rd.Render(ctx, f.FinalURL(), ports.RenderOptions{Party: strconv.FormatInt(r.c.UserID, 10), NoScreenshot: true}, nil)
	<-r.renders
	if ctx.Err() != nil {
		return rendered{}, false
	}
	if err != nil {
		r.cs.cfg.Log.WarnContext(ctx, "crawls: render failed; auditing the HTML the server sent", "crawl", r.c.ID, "url", f.FinalURL(), "err", err)
		return rendered{analysis: pagecheck.NotRendered(raw, pagecheck.RenderFailure(err))}, true
	}
	a := pagecheck.AnalyseRendered(f, page, r.cs.cfg.Weights)
	a.Rendering.Reason = reason
	return rendered{analysis: a, page: pagecheck.RenderedPage(f, page)}, true
}
