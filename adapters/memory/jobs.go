package memory

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webhook"
	"github.com/pinsight/pinsight/ports"
)

// Jobs is the in-process queue of analyses behind the same port as the
// durable ones: jobs live in memory (as do the reports of this adapter), so
// they go with the process, and a report and its job are stored under the
// store's guarantees one after the other (neither can fail in between).
type Jobs struct {
	store      *ReportStore
	workers    int // analyses at once
	deliverers int // deliveries at once, apart from the analyses
	crawlers   int // crawls at once, apart from both
	crawls     *CrawlStore
	sweep      time.Duration
	backoff    func(attempt int) time.Duration

	mu      sync.Mutex
	jobs    map[int64]*memJob
	lastID  int64
	work    ports.AnalysisWorker
	deliver ports.DeliveryWorker
	crawl   ports.CrawlWorker
	// crawlSweep starts the scheduled crawls due, after each sweep.
	crawlSweep func(ctx context.Context, now time.Time) error
	started    bool
	stop       chan struct{}
	ready      chan int64 // due analyses
	due        chan int64 // due deliveries
	crawlsDue  chan int64 // due crawl runs
	wg         sync.WaitGroup
	cancel     context.CancelFunc
}

type memJob struct {
	ports.AnalysisJob
	state    string // scheduled, running, cancelled, discarded (done jobs are dropped)
	delivery int64  // a webhook delivery's id; 0 for an analysis
	crawlID  int64  // a crawl's id; 0 for an analysis
	timer    *time.Timer
}

// Job states of the in-process queue.
const (
	memScheduled = "scheduled"
	memRunning   = "running"
	memCancelled = "cancelled"
	memDiscarded = "discarded"
)

// maxMemoryRuns caps the runs of one job, as River's MaxAttempts does.
const maxMemoryRuns = 10

// NewJobs returns a queue for store's reports running s.Workers analyses
// and s.DeliveryWorkers webhook deliveries at once (default 4 each, with
// workers of their own), and s.CrawlWorkers crawls of the crawl store
// given to Crawls (default ports.DefaultCrawlWorkers) once started, and enqueuing the scheduled analyses
// due every s.Sweep (default ports.DefaultSweep). From then on the store's
// writes that finish reports queue their webhook deliveries on it.
func NewJobs(store *ReportStore, s ports.JobSettings) *Jobs {
	orDefault := func(n int) int {
		if n <= 0 {
			return 4
		}
		return n
	}
	sweep := s.Sweep
	if sweep <= 0 {
		sweep = ports.DefaultSweep
	}
	crawlers := s.CrawlWorkers
	if crawlers <= 0 {
		crawlers = ports.DefaultCrawlWorkers
	}
	j := &Jobs{store: store, workers: orDefault(s.Workers), deliverers: orDefault(s.DeliveryWorkers), crawlers: crawlers, sweep: sweep,
		jobs: map[int64]*memJob{}, ready: make(chan int64, 1024), due: make(chan int64, 1024), crawlsDue: make(chan int64, 1024),
		stop:    make(chan struct{}),
		backoff: func(attempt int) time.Duration { return time.Duration(attempt*attempt) * time.Second }}
	store.mu.Lock()
	store.dropJobs, store.queueDeliveries = j.dropReports, j.queueDeliveries
	store.mu.Unlock()
	return j
}

// dropReports forgets the waiting analysis jobs of reports ids, which
// were deleted: each would find its report gone and do nothing, after a
// run. A running one finishes so. Called with the store's lock held (the
// store never takes it while holding j.mu).
func (j *Jobs) dropReports(ids []int64) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for id, job := range j.jobs {
		if job.delivery == 0 && job.crawlID == 0 && job.state == memScheduled && slices.Contains(ids, job.ReportID) {
			job.timer.Stop()
			delete(j.jobs, id)
		}
	}
}

// CreateWithJob implements ports.Jobs.
func (j *Jobs) CreateWithJob(ctx context.Context, r report.Report, idem *report.Idempotency, runAt time.Time) (report.Report, int64, error) {
	out, err := j.store.CreateReports(ctx, []report.Report{r}, idem)
	if err != nil {
		return report.Report{}, 0, err
	}
	return out[0], j.enqueue(out[0].ID, out[0].UserID, runAt), nil
}

// CreateManyWithJobs implements ports.Jobs.
func (j *Jobs) CreateManyWithJobs(ctx context.Context, rs []report.Report, idem *report.Idempotency, runAt []time.Time) ([]report.Report, []int64, error) {
	out, err := j.store.CreateReports(ctx, rs, idem)
	if err != nil {
		return nil, nil, err
	}
	ids := make([]int64, len(out))
	for i, r := range out {
		ids[i] = j.enqueue(r.ID, r.UserID, runAt[i])
	}
	return out, ids, nil
}

// UpdateWithJob implements ports.Jobs.
func (j *Jobs) UpdateWithJob(ctx context.Context, userID, id int64, update func(*report.Report) error, runAt time.Time) (report.Report, int64, error) {
	out, err := j.store.UpdateReport(ctx, userID, id, update)
	if err != nil {
		return report.Report{}, 0, err
	}
	return out, j.enqueue(id, userID, runAt), nil
}

func (j *Jobs) enqueue(reportID, userID int64, runAt time.Time) int64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.lastID++
	job := &memJob{AnalysisJob: ports.AnalysisJob{ID: j.lastID, ReportID: reportID, UserID: userID}}
	j.jobs[job.ID] = job
	j.scheduleLocked(job, time.Until(runAt))
	return job.ID
}

// scheduleLocked makes job due after d.
func (j *Jobs) scheduleLocked(job *memJob, d time.Duration) {
	job.state = memScheduled
	job.DueAt = time.Now().Add(max(d, 0))
	id, ready := job.ID, j.ready
	switch {
	case job.delivery != 0:
		ready = j.due
	case job.crawlID != 0:
		ready = j.crawlsDue
	}
	job.timer = time.AfterFunc(max(d, 0), func() {
		select {
		case ready <- id:
		case <-j.stop:
		}
	})
}

// CancelJob implements ports.Jobs.
func (j *Jobs) CancelJob(_ context.Context, id int64) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if job, ok := j.jobs[id]; ok && job.state == memScheduled {
		job.timer.Stop()
		job.state = memCancelled
	}
	return nil
}

// Start implements ports.Jobs.
func (j *Jobs) Start(ctx context.Context, work ports.AnalysisWorker) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.started {
		return ports.ErrJobsStopped
	}
	j.started, j.work = true, work
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	j.cancel = cancel
	for range j.workers {
		j.wg.Add(1)
		go j.loop(runCtx, j.ready)
	}
	for range j.deliverers {
		j.wg.Add(1)
		go j.loop(runCtx, j.due)
	}
	for range j.crawlers {
		j.wg.Add(1)
		go j.loop(runCtx, j.crawlsDue)
	}
	j.wg.Add(1)
	go j.sweeper(runCtx)
	return nil
}

// sweeper enqueues the scheduled analyses due, then starts the scheduled
// crawls due (SetCrawlSweep), at start and every sweep.
func (j *Jobs) sweeper(ctx context.Context) {
	defer j.wg.Done()
	tick := time.NewTicker(j.sweep)
	defer tick.Stop()
	for {
		now := time.Now()
		_, _ = j.EnqueueDue(ctx, now, 500)
		j.mu.Lock()
		crawlSweep := j.crawlSweep
		j.mu.Unlock()
		if crawlSweep != nil {
			_ = crawlSweep(ctx, now)
		}
		select {
		case <-j.stop:
			return
		case <-tick.C:
		}
	}
}

// loop runs the jobs that come due on ready until Stop.
func (j *Jobs) loop(ctx context.Context, ready <-chan int64) {
	defer j.wg.Done()
	for {
		select {
		case <-j.stop:
			return
		case id := <-ready:
			j.run(ctx, id)
		}
	}
}

// run runs job id once and files its outcome.
func (j *Jobs) run(ctx context.Context, id int64) {
	j.mu.Lock()
	job, ok := j.jobs[id]
	if !ok || job.state != memScheduled {
		j.mu.Unlock()
		return
	}
	job.state = memRunning
	job.Attempt++
	args := job.AnalysisJob
	deliver, delivery := j.deliver, job.delivery
	crawlWork, crawlID := j.crawl, job.crawlID
	j.mu.Unlock()

	var err error
	switch {
	case crawlID != 0 && crawlWork == nil:
		err = &ports.SnoozeError{After: time.Second}
	case crawlID != 0:
		err = crawlWork(ctx, ports.CrawlJob{ID: id, CrawlID: crawlID, UserID: args.UserID, Attempt: args.Attempt})
	case delivery == 0:
		err = j.work(ctx, args)
	case deliver == nil:
		err = &ports.SnoozeError{After: time.Second}
	default:
		err = deliver(ctx, ports.DeliveryJob{ID: id, DeliveryID: delivery, Attempt: args.Attempt})
	}

	j.mu.Lock()
	defer j.mu.Unlock()
	var snooze *ports.SnoozeError
	var retry *ports.RetryError
	switch {
	case err == nil:
		delete(j.jobs, id) // done: nothing more to know of it
	case errors.As(err, &snooze):
		job.Attempt--
		j.scheduleLocked(job, snooze.After)
	case errors.As(err, &retry) && job.delivery != 0 && job.Attempt < webhook.MaxAttempts:
		j.scheduleLocked(job, deliveryBackoff(job.Attempt))
	case errors.As(err, &retry) && job.delivery == 0 && job.Attempt < maxMemoryRuns: // analyses and crawls
		j.scheduleLocked(job, j.backoff(job.Attempt))
	default:
		job.state = memDiscarded
	}
}

// Stop implements ports.Jobs: running jobs finish unless ctx ends first.
func (j *Jobs) Stop(ctx context.Context) error {
	j.mu.Lock()
	if !j.started {
		j.mu.Unlock()
		return nil
	}
	select {
	case <-j.stop:
	default:
		close(j.stop)
	}
	j.mu.Unlock()
	done := make(chan struct{})
	go func() { j.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		j.cancel()
		<-done
		return ctx.Err()
	}
}

// Stats implements ports.Jobs.
func (j *Jobs) Stats(context.Context) (ports.JobStats, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	var st ports.JobStats
	for _, job := range j.jobs {
		counts := &st.JobCounts
		switch {
		case job.delivery != 0:
			counts = &st.Deliveries
		case job.crawlID != 0:
			counts = &st.Crawls
		}
		switch job.state {
		case memScheduled:
			counts.Queued++
		case memRunning:
			counts.Running++
		case memCancelled, memDiscarded:
			counts.Failed++
		}
	}
	return st, nil
}

// Interface guard.
var _ ports.Jobs = (*Jobs)(nil)
