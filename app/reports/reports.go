// Package reports is the site-analysis use cases: the report lifecycle
// (create, read, list, update, delete, the public page's reads), projects,
// and the analyser that fetches and scores a page within per-user, per-site
// and per-address quotas.
package reports

import (
	"context"
	"time"

	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// PageAnalyser analyses one URL. *Analyser is the one the server wires;
// the interface lets tests of the report lifecycle choose their scores.
type PageAnalyser interface {
	// AnalyseWithScreenshots fetches rawURL and analyses it for user
	// userID, within that user's quotas, rendering it in a browser too as
	// mode says; a rendered analysis returns its screenshots beside it
	// (the first screen's, and the whole page's with shots
	// report.ScreenshotFull), none otherwise. Errors: *QuotaError,
	// ErrBusy, *ThrottledError, *webpage.FetchError.
	AnalyseWithScreenshots(ctx context.Context, userID int64, rawURL string, mode pagecheck.RenderMode, shots report.ScreenshotMode) (pagecheck.Analysis, report.Screenshots, error)
}

// Reports is the report lifecycle: create (analyse and store), read, list,
// update (privacy, password, re-analysis), delete, and the public page's
// reads. Every call but the public page's is scoped to one user.
type Reports struct {
	store    ports.ReportStore
	analyser PageAnalyser
	pw       accounts.PasswordHasher
	now      func() time.Time
	jobs     *jobConfig          // nil: every analysis runs in its request
	history  ports.ReportHistory // the store's, when it keeps one
	// renderDefault is the render mode of requests that name none ("":
	// DefaultRender).
	renderDefault pagecheck.RenderMode
}

// Option adjusts Reports at construction.
type Option func(*Reports)

// WithClock makes the use cases read the time from now instead of
// time.Now (tests, replays, deterministic comparisons).
func WithClock(now func() time.Time) Option { return func(rs *Reports) { rs.now = now } }

// New returns the report use cases over store, analysing with analyser and
// hashing share passwords with pw.
func New(store ports.ReportStore, analyser PageAnalyser, pw accounts.PasswordHasher, opts ...Option) *Reports {
	rs := &Reports{store: store, analyser: analyser, pw: pw, now: time.Now}
	rs.history, _ = store.(ports.ReportHistory)
	for _, o := range opts {
		o(rs)
	}
	return rs
}

// NewReport is the input of Create. Nil fields were not sent.
type NewReport struct {
	URL      string
	Privacy  *int    // default report.DefaultPrivacy
	Password *string // required when Privacy is 2, refused otherwise
	// IdempotencyKey names the request ("" none): sent again with the same
	// input within report.IdempotencyKeyTTL, it creates nothing and answers
	// the report it created (see Create).
	IdempotencyKey string
	// Schedule re-analyses the report daily or weekly ("off", nil: never).
	Schedule *string
	// Wait is how long the request waits for the analysis (nil: the
	// default, DefaultWait; 0 to MaxWait). With jobs (WithJobs), a report
	// not finished by then is stored pending (report.OutcomeAccepted); its
	// job finishes it.
	Wait *time.Duration
	// Render says whether the analysis renders the page in a browser too:
	// off, on or auto (nil: the server's default, DefaultRender unless
	// WithRenderDefault says otherwise).
	Render *string
	// Screenshot says which screenshots a rendered analysis keeps:
	// viewport (nil: the default) or full (the whole page too; refused
	// with render off).
	Screenshot *string
}

// Created is the outcome of Create: the report and how it was answered.
type Created struct {
	report.Report
	// Outcome is report.OutcomeCreated (analysed and stored) or
	// report.OutcomeAccepted (stored pending, its job finishes it); for a
	// replay, the first request's.
	Outcome report.Outcome
	// Replayed tells that an earlier request with the same idempotency key
	// created the report; Report is its current state.
	Replayed bool
}

// ReportUpdate is the input of Update. Nil fields were not sent.
type ReportUpdate struct {
	Privacy  *int
	Password *string
	// Reanalyse runs the analysis of the report's URL again and replaces
	// its results, score, rating, project and generation time.
	Reanalyse bool
	// Schedule changes the report's schedule (daily, weekly, off); the
	// next run is a period after now.
	Schedule *string
	// Wait bounds the wait for a re-analysis, as NewReport.Wait does; the
	// report answered is then pending (running), its job finishes it.
	Wait *time.Duration
	// Render changes how this re-analysis and the report's later ones
	// render the page (nil: as before). Only with Reanalyse.
	Render *string
	// Screenshot changes which screenshots this re-analysis and the
	// report's later ones keep (nil: as before). Only with Reanalyse.
	Screenshot *string
}

// Create validates in, analyses the URL and stores the report. With jobs,
// the analysis is charged to the user's daily quota as it is accepted
// (admit), and one refused only for now (busy, throttled, the user's
// analyses at once) is stored pending for its job to run. With an
// idempotency key, see createOnce. Errors: *report.ValidationError,
// *webpage.FetchError, ErrBusy, accounts.ErrPasswordsBusy, *QuotaError,
// *ThrottledError, *InProgressError, report.ErrNotFound (a replay whose
// report was deleted since).
func (rs *Reports) Create(ctx context.Context, userID int64, in NewReport) (Created, error) {
	if err := report.CheckURL(in.URL); err != nil {
		return Created{}, err
	}
	privacy := report.DefaultPrivacy
	if in.Privacy != nil {
		p, err := report.ParsePrivacy(*in.Privacy)
		if err != nil {
			return Created{}, err
		}
		privacy = p
	}
	password, err := report.SharePassword(privacy, in.Password, false)
	if err != nil {
		return Created{}, err
	}
	wait, err := rs.waitOf(in.Wait)
	if err != nil {
		return Created{}, err
	}
	var schedule report.Schedule
	if in.Schedule != nil {
		if schedule, err = report.ParseSchedule(*in.Schedule); err != nil {
			return Created{}, err
		}
	}
	mode, err := rs.renderOf(in.Render)
	if err != nil {
		return Created{}, err
	}
	shots, err := screenshotOf(in.Screenshot, mode)
	if err != nil {
		return Created{}, err
	}
	if in.IdempotencyKey != "" {
		return rs.createOnce(ctx, userID, in, privacy, password, schedule, mode, shots, min(wait, IdempotencyLock-backstopGrace))
	}
	return rs.create(ctx, userID, in.URL, privacy, password, schedule, mode, shots, nil, wait)
}

// create hashes the password, analyses url within wait and stores the
// report; with idem, in the transaction that finishes idem. An analysis
// not finished within wait (or not run: wait 0) is stored pending with its
// job (report.OutcomeAccepted).
func (rs *Reports) create(ctx context.Context, userID int64, url string, privacy report.Privacy, password string, schedule report.Schedule, mode pagecheck.RenderMode, shots report.ScreenshotMode, idem *report.Idempotency, wait time.Duration) (Created, error) {
	hash, err := rs.hash(ctx, password)
	if err != nil {
		return Created{}, err
	}
	if ctx, err = rs.admit(ctx, userID, 1, mode); err != nil {
		return Created{}, err
	}
	now := rs.clock()
	r := report.Report{UserID: userID, Privacy: privacy, PasswordHash: hash, Render: mode, Screenshot: shots, CreatedAt: now, UpdatedAt: now, GeneratedAt: now}
	setSchedule(&r, schedule, now)
	if rs.jobs != nil && wait == 0 {
		return rs.createPending(ctx, r, url, idem, nil)
	}
	o, done, later := rs.analyseWithin(ctx, userID, url, mode, shots, wait)
	if !done {
		return rs.createPending(ctx, r, url, idem, later)
	}
	if o.err != nil && rs.deferred(o.err) {
		return rs.createPending(ctx, r, url, idem, nil) // admitted: its job runs it
	}
	if o.err != nil {
		return Created{}, o.err
	}
	r.Attempts = 1
	if err := r.ApplyScreenshots(o.a, o.shots, now); err != nil {
		return Created{}, err
	}
	if idem == nil {
		out, err := rs.store.CreateReport(ctx, r)
		if err == nil {
			rs.record(ctx, out)
		}
		return Created{Report: out, Outcome: report.OutcomeCreated}, err
	}
	finished := *idem
	finished.Outcome = report.OutcomeCreated
	out, err := rs.store.CreateReports(ctx, []report.Report{r}, &finished)
	if err != nil {
		return Created{}, err
	}
	rs.record(ctx, out[0])
	return Created{Report: out[0], Outcome: report.OutcomeCreated}, nil
}

// createPending stores r for url pending, with its job: its outcome is
// report.OutcomeAccepted. With later (an analysis running in this process), the
// report is running, its job waits as a backstop and the analysis' outcome
// is stored when it comes; otherwise the job runs at once.
func (rs *Reports) createPending(ctx context.Context, r report.Report, url string, idem *report.Idempotency, later <-chan outcome) (Created, error) {
	project, err := report.ProjectName(url)
	if err != nil {
		return Created{}, err
	}
	r.URL, r.Project, r.Status = url, project, report.StatusPending
	var runAt time.Time
	if later != nil {
		r.Status, r.Attempts, runAt = report.StatusRunning, 1, rs.backstop(r.Render)
	}
	var finished *report.Idempotency
	if idem != nil {
		f := *idem
		f.Outcome = report.OutcomeAccepted
		finished = &f
	}
	out, _, err := rs.jobs.jobs.CreateWithJob(ctx, r, finished, runAt)
	if err != nil {
		return Created{}, err
	}
	if later != nil {
		go rs.finishLate(later, out.UserID, out.ID, false)
	}
	return Created{Report: out, Outcome: report.OutcomeAccepted}, nil
}

// hash is the argon2id hash of a share password, "" for none.
func (rs *Reports) hash(ctx context.Context, password string) (string, error) {
	if password == "" {
		return "", nil
	}
	return rs.pw.Hash(ctx, password)
}

// Get returns the user's report id, or report.ErrNotFound.
func (rs *Reports) Get(ctx context.Context, userID, id int64) (report.Report, error) {
	return rs.store.Report(ctx, userID, id)
}

// List returns a page of the user's reports. Invalid parameters are a
// *report.ValidationError.
func (rs *Reports) List(ctx context.Context, userID int64, p report.ReportParams) (paging.List[report.Report], error) {
	q, err := report.NewReportQuery(p)
	if err != nil {
		return paging.List[report.Report]{}, err
	}
	items, total, err := rs.store.Reports(ctx, userID, q)
	return paging.List[report.Report]{Items: items, Total: total, Page: q.Page}, err
}

// Update changes the user's report id: privacy, password and, when asked,
// a fresh analysis, all in one write. Leaving privacy 2 keeps the stored
// password, so returning to 2 needs none. A re-analysis counts against the
// user's quotas like a new one (charged as it is accepted, as Create's). Errors: report.ErrNotFound,
// *report.ValidationError, *webpage.FetchError, ErrBusy, accounts.ErrPasswordsBusy,
// *QuotaError, *ThrottledError.
func (rs *Reports) Update(ctx context.Context, userID, id int64, in ReportUpdate) (report.Report, error) {
	cur, err := rs.store.Report(ctx, userID, id)
	if err != nil {
		return report.Report{}, err
	}
	privacy := cur.Privacy
	if in.Privacy != nil {
		if privacy, err = report.ParsePrivacy(*in.Privacy); err != nil {
			return report.Report{}, err
		}
	}
	password, err := report.SharePassword(privacy, in.Password, cur.HasPassword())
	if err != nil {
		return report.Report{}, err
	}
	hash, err := rs.hash(ctx, password)
	if err != nil {
		return report.Report{}, err
	}
	var schedule *report.Schedule
	if in.Schedule != nil {
		sch, err := report.ParseSchedule(*in.Schedule)
		if err != nil {
			return report.Report{}, err
		}
		schedule = &sch
	}
	if in.Render != nil && !in.Reanalyse {
		return report.Report{}, report.Invalid("render", "is only read with reanalyze: send reanalyze=true to analyse again with it")
	}
	if in.Screenshot != nil && !in.Reanalyse {
		return report.Report{}, report.Invalid("screenshot", "is only read with reanalyze: send reanalyze=true to analyse again with it")
	}
	mode := cur.Render
	if in.Render != nil {
		if mode, err = rs.renderOf(in.Render); err != nil {
			return report.Report{}, err
		}
	}
	shots := cur.Screenshot
	if in.Screenshot != nil {
		if shots, err = screenshotOf(in.Screenshot, mode); err != nil {
			return report.Report{}, err
		}
	}
	if in.Privacy == nil && hash == "" && !in.Reanalyse && schedule == nil {
		return cur, nil // nothing to change
	}
	wait, err := rs.waitOf(in.Wait)
	if err != nil {
		return report.Report{}, err
	}
	var o outcome
	if in.Reanalyse {
		if ctx, err = rs.admit(ctx, userID, 1, mode); err != nil {
			return report.Report{}, err
		}
		if rs.jobs != nil && wait == 0 {
			return rs.updatePending(ctx, userID, id, privacy, hash, schedule, mode, shots, nil)
		}
		var done bool
		var later <-chan outcome
		o, done, later = rs.analyseWithin(ctx, userID, cur.URL, mode, shots, wait)
		if !done {
			return rs.updatePending(ctx, userID, id, privacy, hash, schedule, mode, shots, later)
		}
		if o.err != nil && rs.deferred(o.err) {
			return rs.updatePending(ctx, userID, id, privacy, hash, schedule, mode, shots, nil) // admitted: its job runs it
		}
		if o.err != nil {
			return report.Report{}, o.err
		}
	}
	now := rs.clock()
	out, err := rs.store.UpdateReport(ctx, userID, id, func(r *report.Report) error {
		r.Privacy, r.UpdatedAt = privacy, now
		if hash != "" {
			r.PasswordHash = hash
		}
		if schedule != nil {
			setSchedule(r, *schedule, now)
		}
		if !in.Reanalyse {
			return nil
		}
		url := r.URL // set on creation; the analysis may have been redirected elsewhere
		err := r.ApplyScreenshots(o.a, o.shots, now)
		r.URL, r.Attempts, r.Render, r.Screenshot = url, 1, mode, shots
		return err
	})
	if err == nil && in.Reanalyse {
		rs.record(ctx, out)
	}
	return out, err
}

// updatePending is Update's write when the re-analysis did not finish
// within its wait (later: it runs on in this process) or was not run
// (wait 0): the report is pending, with its job, in one write.
func (rs *Reports) updatePending(ctx context.Context, userID, id int64, privacy report.Privacy, hash string, schedule *report.Schedule, mode pagecheck.RenderMode, shots report.ScreenshotMode, later <-chan outcome) (report.Report, error) {
	now := rs.clock()
	var runAt time.Time
	if later != nil {
		runAt = rs.backstop(mode)
	}
	out, _, err := rs.jobs.jobs.UpdateWithJob(ctx, userID, id, func(r *report.Report) error {
		r.Privacy, r.UpdatedAt, r.Failure = privacy, now, ""
		if hash != "" {
			r.PasswordHash = hash
		}
		if schedule != nil {
			setSchedule(r, *schedule, now)
		}
		r.Status, r.Attempts, r.Render, r.Screenshot = report.StatusPending, 0, mode, shots
		if later != nil {
			r.Status, r.Attempts = report.StatusRunning, 1
		}
		return nil
	}, runAt)
	if err != nil {
		return report.Report{}, err
	}
	if later != nil {
		go rs.finishLate(later, userID, id, true)
	}
	return out, nil
}

// Delete deletes the user's report id, or returns report.ErrNotFound.
func (rs *Reports) Delete(ctx context.Context, userID, id int64) error {
	return rs.store.DeleteReport(ctx, userID, id)
}

// Shared returns the report whose share token is token, for its public
// page: to anyone when its privacy is 0 or 2 (the caller asks for the
// password of a 2), and to its owner whatever its privacy (viewer is the
// user the request authenticated, 0 for none). Otherwise, and for anything
// that is not a share token (looked up no further), report.ErrNotFound.
func (rs *Reports) Shared(ctx context.Context, token string, viewer int64) (report.Report, error) {
	if !report.ValidShareToken(token) {
		return report.Report{}, report.ErrNotFound
	}
	r, err := rs.store.ReportByToken(ctx, token)
	if err != nil {
		return report.Report{}, err
	}
	if r.Privacy == report.Private && (viewer == 0 || r.UserID != viewer) {
		return report.Report{}, report.ErrNotFound
	}
	return r, nil
}

// CheckSharePassword reports whether password opens report r (privacy 2).
// Errors: accounts.ErrPasswordsBusy, the context's.
func (rs *Reports) CheckSharePassword(ctx context.Context, r report.Report, password string) (bool, error) {
	if r.Privacy != report.Protected || !r.HasPassword() || password == "" {
		return false, nil
	}
	return rs.pw.Verify(ctx, r.PasswordHash, password)
}

func (rs *Reports) clock() time.Time { return rs.now().UTC().Truncate(time.Second) }
