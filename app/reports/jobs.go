package reports

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"time"

	"github.com/pinsight/pinsight/domain/fault"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// MaxWait is the longest a request may wait for its analysis (the wait
// parameter of create and re-analyse).
const MaxWait = 60 * time.Second

// DefaultFetchDeadline is the fetch deadline assumed by WithJobs when none
// is given: the fetcher's default.
const DefaultFetchDeadline = 15 * time.Second

// backstopGrace is how long after an analysis could at most have run in a
// request a job takes it over: the job is the analysis' durable backstop
// (it runs when the process died, or the analysis failed in a way worth
// retrying), and a no-op when the request's analysis finished.
const backstopGrace = 10 * time.Second

// jobConfig is what WithJobs sets.
type jobConfig struct {
	jobs           ports.Jobs
	fetchDeadline  time.Duration
	renderDeadline time.Duration // added for a rendered analysis
	waitCap        time.Duration
	log            *slog.Logger
}

// WithJobs makes analyses durable: a request that does not finish its
// analysis within its wait answers the pending report, which a job of
// jobs finishes (retried on timeouts, resets and 5xx, rescued after a
// crash). s.FetchDeadline bounds one analysis (0: DefaultFetchDeadline);
// the default wait is the fetch deadline + 5 s, so every analysis that
// finishes at all finishes within it. s.WaitCap, when positive, caps every
// wait (the server's write timeout must not cut an answer). Without
// WithJobs, every analysis runs in its request, as it always did.
func WithJobs(jobs ports.Jobs, s ports.JobSettings, log *slog.Logger) Option {
	fetchDeadline := s.FetchDeadline
	if fetchDeadline <= 0 {
		fetchDeadline = DefaultFetchDeadline
	}
	if log == nil {
		log = slog.Default()
	}
	return func(rs *Reports) {
		rs.jobs = &jobConfig{jobs: jobs, fetchDeadline: fetchDeadline, renderDeadline: max(s.RenderDeadline, 0), waitCap: s.WaitCap, log: log}
	}
}

// DefaultWait is the wait of a request that gives none: the fetch deadline
// + 5 s with jobs; without them analyses always run to their end.
func (rs *Reports) DefaultWait() time.Duration {
	if rs.jobs == nil {
		return MaxWait
	}
	w := min(rs.jobs.fetchDeadline+5*time.Second, MaxWait)
	if rs.jobs.waitCap > 0 {
		w = min(w, rs.jobs.waitCap)
	}
	return w
}

// waitOf is the wait a request asked for, or the default; a negative or
// too long one is a *report.ValidationError.
func (rs *Reports) waitOf(w *time.Duration) (time.Duration, error) {
	if w == nil {
		return rs.DefaultWait(), nil
	}
	if *w < 0 || *w > MaxWait {
		return 0, report.Invalid("wait", "must be 0 to 60 seconds")
	}
	if rs.jobs != nil && rs.jobs.waitCap > 0 {
		return min(*w, rs.jobs.waitCap), nil
	}
	return *w, nil
}

// outcome is the end of one analysis: with its screenshots (none unless
// it rendered), carried beside the analysis, never inside it.
type outcome struct {
	a     pagecheck.Analysis
	shots report.Screenshots
	err   error
}

// analyseWithin runs the analysis of url for userID and waits for it up
// to wait. done is false when the wait ran out first: the analysis goes on
// and its outcome arrives on later. Without jobs it always waits to the
// end, under ctx, as analyses always ran.
func (rs *Reports) analyseWithin(ctx context.Context, userID int64, url string, mode pagecheck.RenderMode, shots report.ScreenshotMode, wait time.Duration) (o outcome, done bool, later <-chan outcome) {
	if rs.jobs == nil {
		return rs.analyse(ctx, userID, url, mode, shots), true, nil
	}
	ch := make(chan outcome, 1)
	// The analysis outlives the request when it answers 202; the fetch
	// deadline bounds it, and the extra bound covers the quotas' checks.
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rs.jobs.deadline(mode)+backstopGrace/2)
	go func() {
		defer cancel()
		ch <- rs.analyse(actx, userID, url, mode, shots)
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case o := <-ch:
		return o, true, nil
	case <-timer.C:
		return outcome{}, false, ch
	case <-ctx.Done():
		cancel()
		return outcome{err: ctx.Err()}, true, nil
	}
}

// backstop is when the job behind an analysis running in a request runs:
// after the analysis' deadline (mode's: a rendered one has longer).
func (rs *Reports) backstop(mode pagecheck.RenderMode) time.Time {
	return time.Now().Add(rs.jobs.deadline(mode) + backstopGrace)
}

// deadline bounds one analysis in mode: the fetch deadline, and the render
// deadline besides when it may render.
func (c *jobConfig) deadline(mode pagecheck.RenderMode) time.Duration {
	if mode == pagecheck.RenderOn || mode == pagecheck.RenderAuto {
		return c.fetchDeadline + c.renderDeadline
	}
	return c.fetchDeadline
}

// finishLate stores the outcome of an analysis that outlived its request
// (the report is answered pending): a result, or a failure that will not
// pass. A failure that may pass leaves the report to its job.
func (rs *Reports) finishLate(later <-chan outcome, userID, id int64, keepURL bool) {
	o := <-later
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if o.err == nil || permanent(o.err) {
		r, err := rs.store.UpdateReport(ctx, userID, id, func(r *report.Report) error {
			if r.Status.Finished() {
				return report.ErrFinished
			}
			return rs.settle(r, o, keepURL)
		})
		if err == nil {
			rs.record(ctx, r)
		}
		// The backstop job stays queued: when it runs, it finds the report
		// finished and does nothing.
		if err != nil && !errors.Is(err, report.ErrFinished) && !errors.Is(err, report.ErrNotFound) {
			rs.jobs.log.Warn("reports: store a late analysis", "report", id, "err", err)
		}
		return
	}
	_, _ = rs.store.UpdateReport(ctx, userID, id, func(r *report.Report) error {
		if r.Status != report.StatusRunning {
			return report.ErrFinished
		}
		r.Status, r.Failure = report.StatusPending, reason(o.err)
		return nil
	})
}

// settle records outcome o on r: the analysis, or (o.err set) the failure.
func (rs *Reports) settle(r *report.Report, o outcome, keepURL bool) error {
	now := rs.clock()
	r.UpdatedAt = now
	if o.err != nil {
		r.Status, r.Failure = report.StatusFailed, reason(o.err)
		return nil
	}
	url := r.URL
	if err := r.ApplyScreenshots(o.a, o.shots, now); err != nil {
		return err
	}
	if keepURL {
		r.URL = url
	}
	return nil
}

// permanent reports whether an analysis failure will not pass by trying
// again: a refused target, an unresolvable name, no valid HTTP answer that
// is not a reset. Quotas, throttles and busy slots pass.
func permanent(err error) bool {
	var fe *webpage.FetchError
	return errors.As(err, &fe) && !fe.Transient
}

// reason is the failure recorded on a report.
func reason(err error) string {
	var fe *webpage.FetchError
	if errors.As(err, &fe) {
		return fe.Reason
	}
	var tooMany interface{ RetryAfter() time.Duration }
	if errors.As(err, &tooMany) {
		return "waiting for an analysis slot or quota"
	}
	return "the analysis did not finish"
}

// RunAnalysis is the worker of queued analyses (a ports.AnalysisWorker):
// it runs the analysis of the job's report unless the report finished
// already (its request's analysis did), and records the outcome. It does
// not charge the user's daily quota: the request that queued the work did
// (admit), and a scheduled run is bounded by report.MaxScheduled. A quota,
// throttle or busy pool snoozes the job until they allow it; a timeout, a
// reset or a 5xx answer is retried until report.MaxAnalysisAttempts analyses
// ran, then the report fails (a 5xx then keeps its result, as a first
// analysis does); a failure that will not pass fails the report at once.
// The user's cap of analyses at once is checked first, by the store, as one
// atomic step with marking the report running (across processes): over it,
// the job snoozes. A failed
// report's job ends with the failure (the queue counts it given
// up); a finished one's ends done.
func (rs *Reports) RunAnalysis(ctx context.Context, job ports.AnalysisJob) error {
	limit := 0
	if uc, ok := rs.analyser.(userCapper); ok {
		limit = uc.UserCap()
	}
	r, err := rs.store.StartAnalysis(ctx, job.UserID, job.ReportID, limit)
	switch {
	case errors.Is(err, report.ErrFinished), errors.Is(err, report.ErrNotFound):
		return nil
	case errors.Is(err, report.ErrRunningLimit):
		return &ports.SnoozeError{After: BusyRetryAfter, Err: &QuotaError{Limit: limit, Wait: BusyRetryAfter}}
	case err != nil:
		return &ports.RetryError{Err: err} // the store: try again later
	}
	o := rs.analyse(admitted(ctx), job.UserID, r.URL, r.Render, r.Screenshot) // charged when accepted
	a, err := o.a, o.err
	var wait interface{ RetryAfter() time.Duration }
	if err != nil && fault.KindOf(err) != fault.Invalid && errors.As(err, &wait) {
		_, uerr := rs.store.UpdateReport(ctx, job.UserID, job.ReportID, func(r *report.Report) error {
			r.Status, r.Attempts = report.StatusPending, max(r.Attempts-1, 0)
			return nil
		})
		return &ports.SnoozeError{After: max(wait.RetryAfter(), time.Second), Err: errors.Join(err, uerr)}
	}
	again := r.Attempts < report.MaxAnalysisAttempts &&
		((err != nil && !permanent(err)) || (err == nil && a.Status >= 500))
	done, uerr := rs.store.UpdateReport(ctx, job.UserID, job.ReportID, func(r *report.Report) error {
		if again {
			r.Status, r.Failure = report.StatusPending, reasonOrStatus(err, a)
			return nil
		}
		return rs.settle(r, o, r.Rating != "") // a re-analysis keeps its URL
	})
	switch {
	case uerr != nil && !errors.Is(uerr, report.ErrNotFound):
		return &ports.RetryError{Err: uerr}
	case again:
		return &ports.RetryError{Err: errors.New(reasonOrStatus(err, a))}
	}
	if uerr == nil {
		rs.record(ctx, done)
	}
	return err // a failure, recorded: the job is given up (nil: done)
}

// reasonOrStatus says why an analysis is tried again.
func reasonOrStatus(err error, a pagecheck.Analysis) string {
	if err != nil {
		return reason(err)
	}
	return "the site answered with HTTP status " + strconv.Itoa(a.Status)
}

// userCapper is implemented by analysers that cap each user's analyses at
// once (*Analyser).
type userCapper interface {
	UserCap() int
}

// UserCap returns how many analyses one user may run at once (0: no cap).
func (a *Analyser) UserCap() int { return max(a.users.Max(), 0) }
