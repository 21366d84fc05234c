package ports

import (
	"context"
	"errors"
	"time"

	"github.com/pinsight/pinsight/domain/report"
)

// AnalysisJob is one queued analysis of a stored report.
type AnalysisJob struct {
	ID       int64 // the queue's id of the job
	ReportID int64
	UserID   int64
	Attempt  int       // 1 on the first run; snoozes do not count
	DueAt    time.Time // when this run became due (enqueued, scheduled, retried or snoozed until); zero if unknown
}

// AnalysisWorker runs one job. What it returns decides what the queue does
// next: nil, the job is done; a *SnoozeError, it runs again after the delay
// without counting an attempt; a *RetryError, it runs again after the
// queue's backoff; any other error, the job is over (the worker records the
// outcome on the report itself).
type AnalysisWorker func(ctx context.Context, job AnalysisJob) error

// SnoozeError asks the queue to run a job again after After, not counting
// the run as an attempt (a quota or a throttle said "later").
type SnoozeError struct {
	After time.Duration
	Err   error // why, for logs
}

func (e *SnoozeError) Error() string {
	return "snoozed for " + e.After.String() + ": " + errText(e.Err)
}

// Unwrap returns the cause.
func (e *SnoozeError) Unwrap() error { return e.Err }

// RetryError asks the queue to run a job again after its backoff (a
// failure that may pass: a timeout, a reset, a 5xx).
type RetryError struct{ Err error }

func (e *RetryError) Error() string { return "retry: " + errText(e.Err) }

// Unwrap returns the cause.
func (e *RetryError) Unwrap() error { return e.Err }

func errText(err error) string {
	if err == nil {
		return "no cause given"
	}
	return err.Error()
}

// ErrJobsStopped is returned by Jobs.Start on a queue already started, and
// by enqueues the queue can no longer take.
var ErrJobsStopped = errors.New("jobs: the runner is stopped or already running")

// JobCounts count the jobs of one kind by state.
type JobCounts struct {
	Queued  int // waiting to run: due now, scheduled, snoozed, or retrying
	Running int
	Failed  int // given up on (discarded or cancelled), as the queue retains them
}

// JobStats is a snapshot of the queue, for metrics and readiness: its
// analyses (the embedded counts) and, apart, the webhook deliveries and
// the crawls it runs on their own workers.
type JobStats struct {
	JobCounts
	Deliveries JobCounts
	Crawls     JobCounts
}

// Jobs is a durable queue of report analyses. Enqueues happen in the
// transaction that writes the report, so a report is never pending without
// a job to run it; jobs survive a crash of the process running them (the
// queue runs them again once they are found stuck).
type Jobs interface {
	// CreateWithJob stores r as ReportStore.CreateReports does (idem
	// included; idem.Outcome is recorded) and, in the same
	// transaction, enqueues the analysis of the new report to run at runAt
	// (now when zero or past). It returns the report and the job's id.
	CreateWithJob(ctx context.Context, r report.Report, idem *report.Idempotency, runAt time.Time) (report.Report, int64, error)
	// CreateManyWithJobs stores rs as ReportStore.CreateReports does (IDs
	// increasing in their order; idem as there) and enqueues the analysis
	// of each, the i-th to run at runAt[i], all in one transaction.
	CreateManyWithJobs(ctx context.Context, rs []report.Report, idem *report.Idempotency, runAt []time.Time) ([]report.Report, []int64, error)
	// UpdateWithJob updates the user's report as ReportStore.UpdateReport
	// does and, in the same transaction, enqueues its analysis to run at
	// runAt. Errors: report.ErrNotFound, update's.
	UpdateWithJob(ctx context.Context, userID, id int64, update func(*report.Report) error, runAt time.Time) (report.Report, int64, error)
	// EnqueueDue starts the scheduled analyses due at now: each finished
	// report whose NextRunAt is at or before now becomes pending (attempts
	// 0), its NextRunAt moves one period of its schedule past now, and its
	// analysis is enqueued, in one transaction; at most limit reports.
	// Returns how many it enqueued.
	EnqueueDue(ctx context.Context, now time.Time, limit int) (int, error)
	// CancelJob cancels job id unless it already finished; a running job
	// finishes its run. Unknown ids are no error.
	CancelJob(ctx context.Context, id int64) error
	// Start runs queued jobs with work, up to the configured number at
	// once, until Stop, and calls EnqueueDue every JobSettings.Sweep (one
	// process at a time where the queue is shared). ErrJobsStopped when
	// already started.
	Start(ctx context.Context, work AnalysisWorker) error
	// Stop stops taking jobs and waits, until ctx ends, for the running
	// ones to finish.
	Stop(ctx context.Context) error
	// Stats counts the queue's jobs by state.
	Stats(ctx context.Context) (JobStats, error)
}

// JobSettings size a Jobs queue: the jobs one process runs at once and the
// fetch deadline that bounds one analysis, from which queues derive how
// long a run may take and when a run counts as stuck (its process died).
type JobSettings struct {
	Workers int
	// DeliveryWorkers is how many webhook deliveries one process runs at
	// once (default 4), apart from the analyses' Workers.
	DeliveryWorkers int
	// CrawlWorkers is how many crawls one process runs at once (default
	// DefaultCrawlWorkers), apart from the analyses and deliveries.
	CrawlWorkers  int
	FetchDeadline time.Duration
	// RenderDeadline is what a rendered analysis may take besides
	// FetchDeadline: the renderer's total deadline (0: nothing renders).
	RenderDeadline time.Duration
	Sweep          time.Duration // how often scheduled analyses are looked for (default a minute)
	// WaitCap caps how long a request waits for its analysis (0: no cap
	// beyond the API's 60 s), below the server's write timeout.
	WaitCap time.Duration
}

// DefaultCrawlWorkers is how many crawls one process runs at once unless
// JobSettings.CrawlWorkers says otherwise.
const DefaultCrawlWorkers = 2

// DefaultSweep is how often queues look for due scheduled analyses.
const DefaultSweep = time.Minute

// ReportHistory keeps the runs (finished analyses) of reports, for their
// history. Runs of a deleted report go with it.
type ReportHistory interface {
	// AddRun records run of the user's report run.ReportID.
	AddRun(ctx context.Context, userID int64, run report.Run) error
	// Runs returns the runs of the user's report id, newest first, at most
	// limit; none for another user's report.
	Runs(ctx context.Context, userID, id int64, limit int) ([]report.Run, error)
}
