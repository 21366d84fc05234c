package reports

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// DefaultUserRenderDaily is how many rendered pages one user may ask for
// a day (rendered analyses, and each page of a rendered crawl): a render
// costs a browser context for about a second, far more than a fetch, so
// it has its own quota beside the analyses' (DefaultUserDaily).
var DefaultUserRenderDaily = ratelimit.Limit{Requests: 1000, Window: 24 * time.Hour}

// ErrNoRenderer is the answer to render on where the analyser has no
// renderer (a library user who passed none, a server without a browser):
// it wraps ports.ErrNoBrowser.
var ErrNoRenderer = fmt.Errorf("reports: %w", ports.ErrNoBrowser)

// RenderAvailable reports whether analyses can render now: nil, or an
// error wrapping ports.ErrNoBrowser saying what to install.
func (a *Analyser) RenderAvailable() error {
	if a.renderer == nil {
		return ErrNoRenderer
	}
	return a.renderer.Available()
}

// RenderDailyLimit returns the quota of rendered analyses one user may
// start a day (not enabled: no quota).
func (a *Analyser) RenderDailyLimit() ratelimit.Limit {
	if a.limiter == nil {
		return ratelimit.Limit{}
	}
	return a.renderDaily
}

// AdmitRenders takes n rendered analyses at once (all or none) from the
// user's daily quota of renders, as Admit does for analyses: charged when
// the work is accepted, render on or auto alike (auto may render).
// Denied, it is a daily *QuotaError with Rendered set.
func (a *Analyser) AdmitRenders(ctx context.Context, user int64, n int) error {
	_, err := a.ChargeRenders(ctx, user, n)
	return err
}

// renderPrefix prefixes the limiter's key of a user's daily quota of
// renders (takeDailyN's key).
const renderPrefix = "renders-user:"

// ChargeRenders is AdmitRenders, answering when the charge is all back by
// itself, from now (zero: nothing charged): rendered crawls charge their
// pages with it and give back what they did not crawl (ReturnRenders).
func (a *Analyser) ChargeRenders(ctx context.Context, user int64, n int) (time.Duration, error) {
	return a.takeDailyN(ctx, renderPrefix, a.RenderDailyLimit(), user, n, true)
}

// ReturnRenders gives back up to n renders of one charge to user's daily
// quota of renders (until: when that charge is all back by itself), once
// per receipt, when the limiter can (ports.QuotaReturner); a failing
// limiter keeps them (logged).
func (a *Analyser) ReturnRenders(ctx context.Context, user int64, n int, until time.Time, receipt string) {
	r, ok := a.limiter.(ports.QuotaReturner)
	limit := a.RenderDailyLimit()
	if !ok || !limit.Enabled() || n <= 0 {
		return
	}
	if _, err := r.GiveBack(ctx, renderPrefix+strconv.FormatInt(user, 10), limit, n, until, receipt); err != nil {
		slog.WarnContext(ctx, "renders not given back to the daily quota", "user", user, "n", n, "err", err)
	}
}

// analyse scores f as mode says: the HTML the server sent (off, or auto
// on a page that needs no browser), or the page rendered in the browser.
// A render that fails (a crash, the browser's memory cap, no answer)
// leaves the analysis of the HTML the server sent, whose Rendering says
// why it was not rendered: the user still gets a report. A user renders
// one page at a time (another render of theirs waits: a QuotaError that
// jobs snooze), so nobody's renders wait behind another user's backlog
// in the renderer's pool. A rendered analysis returns its screenshots
// (the first screen's, and the whole page's with shots full), bounded.
func (a *Analyser) analyse(ctx context.Context, userID int64, f *webpage.Fetched, mode pagecheck.RenderMode, shots report.ScreenshotMode) (pagecheck.Analysis, report.Screenshots, error) {
	need, reason := pagecheck.RenderWanted(mode, f)
	if !need {
		if reason == "" {
			return pagecheck.Analyse(f, a.weights), report.Screenshots{}, nil
		}
		return pagecheck.NotRendered(pagecheck.Analyse(f, a.weights), reason), report.Screenshots{}, nil
	}
	if err := a.RenderAvailable(); err != nil {
		return pagecheck.NotRendered(pagecheck.Analyse(f, a.weights), pagecheck.RenderUnavailable), report.Screenshots{}, nil
	}
	release, ok := a.renders.Take(userID)
	if !ok {
		return pagecheck.Analysis{}, report.Screenshots{}, &QuotaError{Rendered: true, Limit: a.renders.Max(), Wait: BusyRetryAfter}
	}
	defer release()
	if ctx.Value(admittedKey{}) == nil {
		if err := a.AdmitRenders(ctx, userID, 1); err != nil {
			return pagecheck.Analysis{}, report.Screenshots{}, err
		}
	}
	// The raw fetch took the site's and the address's throttles for this
	// analysis; the browser's requests are guarded, not throttled again.
	full := shots == report.ScreenshotFull
	r, err := a.renderer.Render(ctx, f.FinalURL(), ports.RenderOptions{FullPage: full, Party: strconv.FormatInt(userID, 10)}, nil)
	if err != nil && ctx.Err() != nil {
		return pagecheck.Analysis{}, report.Screenshots{}, err // the analysis' own deadline: jobs try again
	}
	if err != nil {
		slog.WarnContext(ctx, "render failed; analysing the HTML the server sent", "url", f.FinalURL(), "err", err)
		return pagecheck.NotRendered(pagecheck.Analyse(f, a.weights), pagecheck.RenderFailure(err)), report.Screenshots{}, nil
	}
	an := pagecheck.AnalyseRendered(f, r, a.weights)
	an.Rendering.Reason = reason
	taken := report.Screenshots{Viewport: r.Screenshot}
	if full {
		taken.Full = r.FullPage
	}
	return an, taken.Bounded(), nil
}
