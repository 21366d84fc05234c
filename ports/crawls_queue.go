package ports

import (
	"context"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/report"
)

// CrawlJob is one queued run of a crawl.
type CrawlJob struct {
	ID      int64 // the queue's id of the job
	CrawlID int64
	UserID  int64
	Attempt int // 1 on the first run; snoozes do not count
}

// CrawlWorker runs one crawl job; its answer is read as an
// AnalysisWorker's: nil done, a *SnoozeError again after its wait without
// counting an attempt (a crawl runs in slices, each ending in a snooze
// until the crawl is final), a *RetryError again after a backoff, any
// other error over.
type CrawlWorker func(ctx context.Context, job CrawlJob) error

// CrawlQueue runs crawls as durable jobs on a queue of their own, with
// workers of their own (JobSettings.CrawlWorkers), from the Start to the
// Stop of the analyses' queue (Jobs). A crawl and its job are written
// together: a crawl is never queued without a job to run it, and deleting
// a crawl (CrawlStore.DeleteCrawl of a store wired to this queue) drops
// its job while it waits.
type CrawlQueue interface {
	// CreateCrawlWithJob stores c as CrawlStore.CreateCrawl does (limit
	// and idem as there) and, in the same transaction, enqueues its run.
	// It returns the crawl and the job's id.
	CreateCrawlWithJob(ctx context.Context, c crawl.Crawl, limit int, idem *report.Idempotency) (crawl.Crawl, int64, error)
	// SetCrawlWorker sets what runs crawl jobs; call it before Start.
	// Without one, crawl jobs wait.
	SetCrawlWorker(w CrawlWorker)
	// SetCrawlSweep sets what the queue's periodic sweep (the one calling
	// Jobs.EnqueueDue, every JobSettings.Sweep, in one process at a time)
	// runs after it, with the time of the sweep: starting the scheduled
	// crawls due. Call it before Start.
	SetCrawlSweep(sweep func(ctx context.Context, now time.Time) error)
}
