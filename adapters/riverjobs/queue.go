// Package riverjobs runs report analyses as durable jobs on River
// (github.com/riverqueue/river) over database/sql: the SQLite and Postgres
// adapters hand it their driver (riversqlite, riverdatabasesql on pgx's
// stdlib) and insert jobs with the *sql.Tx that writes the report, so a
// report and its job commit together or not at all.
package riverjobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivertype"

	"github.com/pinsight/pinsight/ports"
)

// Config tunes the queue. Zero fields take the defaults.
type Config struct {
	// Workers is how many analyses run at once in this process (default 4).
	Workers int
	// DeliveryWorkers is how many webhook deliveries run at once in this
	// process (default 4), apart from the analyses: a receiver that hangs
	// holds a delivery worker, never an analysis one.
	DeliveryWorkers int
	// CrawlWorkers is how many crawls run at once in this process
	// (default ports.DefaultCrawlWorkers), on a queue of their own.
	CrawlWorkers int
	// JobTimeout bounds one run of a job (default 45 s): set it above the
	// fetch deadline, which bounds an analysis.
	JobTimeout time.Duration
	// RescueAfter is how long a job may stay running before it counts as
	// stuck (its process died) and is run again (default JobTimeout + 15 s).
	RescueAfter time.Duration
	// MaxRuns caps the runs of one job, crash rescues included (default
	// 10); the worker decides retries of failed analyses itself.
	MaxRuns int
	// PollInterval is how often the queue looks for due jobs when no
	// notification wakes it (default 1 s; SQLite has no notifications).
	PollInterval time.Duration
	// Logger receives River's logs (default: warnings to slog's default).
	Logger *slog.Logger
	// Sweep is how often the sweep given to SetSweep runs, as a River
	// periodic job: on the elected leader only (default a minute).
	Sweep time.Duration
}

func (c Config) withDefaults() Config {
	if c.Workers <= 0 {
		c.Workers = 4
	}
	if c.DeliveryWorkers <= 0 {
		c.DeliveryWorkers = 4
	}
	if c.CrawlWorkers <= 0 {
		c.CrawlWorkers = ports.DefaultCrawlWorkers
	}
	if c.JobTimeout <= 0 {
		c.JobTimeout = 45 * time.Second
	}
	if c.RescueAfter <= c.JobTimeout {
		c.RescueAfter = c.JobTimeout + 15*time.Second
	}
	if c.MaxRuns <= 0 {
		c.MaxRuns = 10
	}
	if c.PollInterval <= 0 {
		c.PollInterval = time.Second
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.Sweep <= 0 {
		c.Sweep = ports.DefaultSweep
	}
	return c
}

// analysisArgs are the arguments of an analysis job, stored as JSON.
type analysisArgs struct {
	ReportID int64 `json:"report_id"`
	UserID   int64 `json:"user_id"`
}

// The queues of River's table, each with workers of its own, so one kind
// of work never waits behind another: analyses (River's default queue,
// where earlier versions put every job, so jobs they left run on), webhook
// deliveries, crawls, and maintenance (the schedule sweep).
const (
	queueAnalyses    = river.QueueDefault
	queueDeliveries  = "deliveries"
	queueCrawls      = "crawls"
	queueMaintenance = "maintenance"
)

// jobKind names analysis jobs in River's table.
const jobKind = "pinsight_analysis"

// Kind implements river.JobArgs.
func (analysisArgs) Kind() string { return jobKind }

// sweepArgs are the (empty) arguments of the periodic sweep job.
type sweepArgs struct{}

// Kind implements river.JobArgs.
func (sweepArgs) Kind() string { return "pinsight_schedule_sweep" }

// Queue is River's client with Pinsight's jobs: analyses, and the
// periodic sweep that enqueues scheduled ones.
type Queue struct {
	client  *river.Client[*sql.Tx]
	pool    *sql.DB
	cfg     Config
	work    atomic.Pointer[ports.AnalysisWorker]
	sweep   atomic.Pointer[func(context.Context) error]
	deliver atomic.Pointer[ports.DeliveryWorker]
	crawl   atomic.Pointer[ports.CrawlWorker]
	// crawlSweep starts the scheduled crawls due, after sweep.
	crawlSweep atomic.Pointer[func(context.Context, time.Time) error]
	started    atomic.Bool
}

// SetSweep sets what the periodic sweep job runs (the adapter's
// EnqueueDue); without it the sweep does nothing.
func (q *Queue) SetSweep(sweep func(context.Context) error) { q.sweep.Store(&sweep) }

// sweepWorker runs the sweep.
type sweepWorker struct {
	river.WorkerDefaults[sweepArgs]
	q *Queue
}

// Work implements river.Worker.
// The scheduled crawls due are started after the analyses, even when
// enqueueing those failed; the errors of both are joined.
func (w *sweepWorker) Work(ctx context.Context, _ *river.Job[sweepArgs]) error {
	var err error
	if sweep := w.q.sweep.Load(); sweep != nil {
		err = (*sweep)(ctx)
	}
	if sweep := w.q.crawlSweep.Load(); sweep != nil {
		err = errors.Join(err, (*sweep)(ctx, time.Now()))
	}
	return err
}

// New returns a queue over driver, whose pool is pool. Migrate must have
// run on the database.
func New(driver riverdriver.Driver[*sql.Tx], pool *sql.DB, cfg Config) (*Queue, error) {
	cfg = cfg.withDefaults()
	q := &Queue{pool: pool, cfg: cfg}
	workers := river.NewWorkers()
	river.AddWorker(workers, &analysisWorker{q: q})
	river.AddWorker(workers, &sweepWorker{q: q})
	river.AddWorker(workers, &deliveryWorker{q: q})
	river.AddWorker(workers, &crawlWorker{q: q})
	sweep := river.NewPeriodicJob(river.PeriodicInterval(cfg.Sweep),
		func() (river.JobArgs, *river.InsertOpts) {
			return sweepArgs{}, &river.InsertOpts{MaxAttempts: 1, Queue: queueMaintenance}
		},
		&river.PeriodicJobOpts{RunOnStart: true})
	client, err := river.NewClient(driver, &river.Config{
		PeriodicJobs: []*river.PeriodicJob{sweep},
		Queues: map[string]river.QueueConfig{
			queueAnalyses:    {MaxWorkers: cfg.Workers},
			queueDeliveries:  {MaxWorkers: cfg.DeliveryWorkers},
			queueCrawls:      {MaxWorkers: cfg.CrawlWorkers},
			queueMaintenance: {MaxWorkers: 1},
		},
		Workers:              workers,
		JobTimeout:           cfg.JobTimeout,
		RescueStuckJobsAfter: cfg.RescueAfter,
		MaxAttempts:          cfg.MaxRuns,
		FetchPollInterval:    cfg.PollInterval,
		FetchCooldown:        min(100*time.Millisecond, cfg.PollInterval),
		Logger:               cfg.Logger,
	})
	if err != nil {
		return nil, fmt.Errorf("riverjobs: %w", err)
	}
	q.client = client
	return q, nil
}

// Insert enqueues the analysis of report reportID of user userID within tx,
// to run at runAt (now when zero), and returns the job's id.
func (q *Queue) Insert(ctx context.Context, tx *sql.Tx, reportID, userID int64, runAt time.Time) (int64, error) {
	opts := &river.InsertOpts{MaxAttempts: q.cfg.MaxRuns, Queue: queueAnalyses}
	if !runAt.IsZero() {
		opts.ScheduledAt = runAt
	}
	res, err := q.client.InsertTx(ctx, tx, analysisArgs{ReportID: reportID, UserID: userID}, opts)
	if err != nil {
		return 0, fmt.Errorf("riverjobs: enqueue: %w", err)
	}
	return res.Job.ID, nil
}

// CancelJob implements ports.Jobs.
func (q *Queue) CancelJob(ctx context.Context, id int64) error {
	_, err := q.client.JobCancel(ctx, id)
	if err != nil && !errors.Is(err, river.ErrNotFound) {
		return fmt.Errorf("riverjobs: cancel job %d: %w", id, err)
	}
	return nil
}

// Start implements ports.Jobs. The client outlives ctx (fx's start
// context is short): Stop ends it.
func (q *Queue) Start(ctx context.Context, work ports.AnalysisWorker) error {
	if !q.started.CompareAndSwap(false, true) {
		return ports.ErrJobsStopped
	}
	q.work.Store(&work)
	if err := q.client.Start(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("riverjobs: start: %w", err)
	}
	return nil
}

// Stop implements ports.Jobs: running jobs finish unless ctx ends first,
// when they are cancelled (and, being stuck, rescued by another process).
func (q *Queue) Stop(ctx context.Context) error {
	if !q.started.Load() {
		return nil
	}
	if err := q.client.Stop(ctx); err != nil {
		_ = q.client.StopAndCancel(context.Background())
		return fmt.Errorf("riverjobs: stop: %w", err)
	}
	return nil
}

// Stats implements ports.Jobs: one query of River's table, counting
// analyses, deliveries and crawls by state.
func (q *Queue) Stats(ctx context.Context) (ports.JobStats, error) {
	rows, err := q.pool.QueryContext(ctx, "SELECT kind, state, count(*) FROM river_job WHERE kind IN ('"+jobKind+"', '"+
		deliveryArgs{}.Kind()+"', '"+CrawlJobKind+"') GROUP BY kind, state")
	if err != nil {
		return ports.JobStats{}, fmt.Errorf("riverjobs: stats: %w", err)
	}
	defer rows.Close()
	var st ports.JobStats
	for rows.Next() {
		var kind, state string
		var n int
		if err := rows.Scan(&kind, &state, &n); err != nil {
			return ports.JobStats{}, fmt.Errorf("riverjobs: stats: %w", err)
		}
		counts := &st.JobCounts
		switch kind {
		case CrawlJobKind:
			counts = &st.Crawls
		case deliveryArgs{}.Kind():
			counts = &st.Deliveries
		}
		switch rivertype.JobState(state) {
		case rivertype.JobStateAvailable, rivertype.JobStateScheduled, rivertype.JobStateRetryable, rivertype.JobStatePending:
			counts.Queued += n
		case rivertype.JobStateRunning:
			counts.Running += n
		case rivertype.JobStateDiscarded, rivertype.JobStateCancelled:
			counts.Failed += n
		}
	}
	return st, rows.Err()
}

// analysisWorker hands River's jobs to the worker Start was given and
// turns its answer into River's: a snooze, a retry, or the end of the job.
type analysisWorker struct {
	river.WorkerDefaults[analysisArgs]
	q *Queue
}

// Work implements river.Worker.
func (w *analysisWorker) Work(ctx context.Context, job *river.Job[analysisArgs]) error {
	work := w.q.work.Load()
	if work == nil {
		return river.JobSnooze(time.Second) // inserted by a client that does not run jobs yet
	}
	return outcome((*work)(ctx, ports.AnalysisJob{ID: job.ID, ReportID: job.Args.ReportID, UserID: job.Args.UserID, Attempt: job.Attempt, DueAt: job.ScheduledAt}))
}

// Interface guard.
var _ river.Worker[analysisArgs] = (*analysisWorker)(nil)

// outcome is what River does after a worker's answer (ports.AnalysisWorker
// says how it reads): nil, the job is done; a *ports.SnoozeError, it runs
// again after the delay without an attempt counted; a *ports.RetryError,
// again after the backoff; any other error, the job is cancelled.
func outcome(err error) error {
	var snooze *ports.SnoozeError
	var retry *ports.RetryError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &snooze):
		return river.JobSnooze(max(snooze.After, 0))
	case errors.As(err, &retry):
		return err
	}
	return river.JobCancel(err)
}

// ConfigFor derives the queue's configuration from s: a run may take twice
// the fetch and render deadlines plus 10 s (an analysis is one fetch
// deadline and, rendered, one render deadline; the quotas' checks and the
// writes around it the rest), and counts as stuck 10 s after that, when
// the rescuer makes it run again.
func ConfigFor(s ports.JobSettings) Config {
	fetch := s.FetchDeadline
	if fetch <= 0 {
		fetch = 15 * time.Second
	}
	timeout := 2*(fetch+max(s.RenderDeadline, 0)) + 10*time.Second
	return Config{Workers: s.Workers, DeliveryWorkers: s.DeliveryWorkers, CrawlWorkers: s.CrawlWorkers, JobTimeout: timeout, RescueAfter: timeout + 10*time.Second, Sweep: s.Sweep}
}
