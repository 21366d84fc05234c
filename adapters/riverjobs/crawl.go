package riverjobs

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/pinsight/pinsight/ports"
)

// crawlArgs are the arguments of a crawl job, stored as JSON.
type crawlArgs struct {
	CrawlID int64 `json:"crawl_id"`
	UserID  int64 `json:"user_id"`
}

// CrawlJobKind names crawl jobs in River's table (the stores drop a
// deleted crawl's waiting job by it).
const CrawlJobKind = "pinsight_crawl"

// Kind implements river.JobArgs.
func (crawlArgs) Kind() string { return CrawlJobKind }

// SetCrawlWorker implements ports.CrawlQueue.
func (q *Queue) SetCrawlWorker(w ports.CrawlWorker) { q.crawl.Store(&w) }

// SetCrawlSweep implements ports.CrawlQueue: the periodic sweep job runs
// sweep after the one SetSweep set.
func (q *Queue) SetCrawlSweep(sweep func(context.Context, time.Time) error) {
	q.crawlSweep.Store(&sweep)
}

// InsertCrawl enqueues the run of the user's crawl crawlID within tx and
// returns the job's id.
func (q *Queue) InsertCrawl(ctx context.Context, tx *sql.Tx, crawlID, userID int64) (int64, error) {
	res, err := q.client.InsertTx(ctx, tx, crawlArgs{CrawlID: crawlID, UserID: userID},
		&river.InsertOpts{MaxAttempts: q.cfg.MaxRuns, Queue: queueCrawls})
	if err != nil {
		return 0, fmt.Errorf("riverjobs: enqueue crawl: %w", err)
	}
	return res.Job.ID, nil
}

// crawlWorker hands crawl jobs to the worker SetCrawlWorker set. A crawl
// runs in slices shorter than the job timeout, each ending in a snooze
// until the crawl is final, so no run counts as stuck while it works.
type crawlWorker struct {
	river.WorkerDefaults[crawlArgs]
	q *Queue
}

// Work implements river.Worker.
func (w *crawlWorker) Work(ctx context.Context, job *river.Job[crawlArgs]) error {
	work := w.q.crawl.Load()
	if work == nil {
		return river.JobSnooze(time.Second)
	}
	return outcome((*work)(ctx, ports.CrawlJob{ID: job.ID, CrawlID: job.Args.CrawlID, UserID: job.Args.UserID, Attempt: job.Attempt}))
}

// Interface guard.
var _ river.Worker[crawlArgs] = (*crawlWorker)(nil)
