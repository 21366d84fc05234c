package memory

import (
	"context"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// Crawls makes j the queue of cs's crawls: CreateCrawlWithJob stores in
// cs, and deleting a crawl of cs drops its waiting job.
func (j *Jobs) Crawls(cs *CrawlStore) {
	j.mu.Lock()
	j.crawls = cs
	j.mu.Unlock()
	cs.mu.Lock()
	cs.dropJob = j.dropCrawl
	cs.mu.Unlock()
}

// CreateCrawlWithJob implements ports.CrawlQueue: the crawl is stored,
// then its job queued (neither can fail in between).
func (j *Jobs) CreateCrawlWithJob(ctx context.Context, c crawl.Crawl, limit int, idem *report.Idempotency) (crawl.Crawl, int64, error) {
	out, err := j.crawls.CreateCrawl(ctx, c, limit, idem)
	if err != nil {
		return crawl.Crawl{}, 0, err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.lastID++
	job := &memJob{AnalysisJob: ports.AnalysisJob{ID: j.lastID, UserID: out.UserID}, crawlID: out.ID}
	j.jobs[job.ID] = job
	j.scheduleLocked(job, 0)
	return out, job.ID, nil
}

// SetCrawlWorker implements ports.CrawlQueue.
func (j *Jobs) SetCrawlWorker(w ports.CrawlWorker) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.crawl = w
}

// SetCrawlSweep implements ports.CrawlQueue.
func (j *Jobs) SetCrawlSweep(sweep func(ctx context.Context, now time.Time) error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.crawlSweep = sweep
}

// dropCrawl forgets the waiting job of crawl id, which was deleted.
// Called with the crawl store's lock held (the store never takes it
// while holding j.mu).
func (j *Jobs) dropCrawl(id int64) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for jobID, job := range j.jobs {
		if job.crawlID == id && job.state == memScheduled {
			job.timer.Stop()
			delete(j.jobs, jobID)
		}
	}
}

// Interface guard.
var _ ports.CrawlQueue = (*Jobs)(nil)
