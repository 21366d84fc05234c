package porttest

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/ports"
)

// CrawlQueueSubject is a crawl queue under test: the analyses' queue that
// starts and stops it, the crawl store its crawls are written to (wired
// to the queue, so deleting a crawl drops its job) and the account store
// of the same database.
type CrawlQueueSubject struct {
	Jobs     ports.Jobs
	Queue    ports.CrawlQueue
	Crawls   ports.CrawlStore
	Accounts ports.AccountStore
}

// TestCrawlQueue checks a CrawlQueue. newSubject must return a stopped
// queue over empty stores each time it is called.
func TestCrawlQueue(t *testing.T, newSubject func(t *testing.T) CrawlQueueSubject) {
	t.Run("create runs the job, snoozes do not count", func(t *testing.T) { testCrawlQueueRuns(t, newSubject(t)) })
	t.Run("cap stores nothing", func(t *testing.T) { testCrawlQueueCap(t, newSubject(t)) })
	t.Run("delete drops the waiting job", func(t *testing.T) { testCrawlQueueDelete(t, newSubject(t)) })
	t.Run("the sweep starts scheduled crawls", func(t *testing.T) { testCrawlQueueSweep(t, newSubject(t)) })
}

// testCrawlQueueSweep: the periodic sweep, which runs at start, calls the
// crawl sweep with the time of the sweep.
func testCrawlQueueSweep(t *testing.T, s CrawlQueueSubject) {
	swept := make(chan time.Time, 8)
	s.Queue.SetCrawlSweep(func(_ context.Context, now time.Time) error {
		swept <- now
		return nil
	})
	before := time.Now()
	startCrawlJobs(t, s.Jobs)
	select {
	case now := <-swept:
		if now.Before(before.Add(-time.Second)) || now.After(time.Now().Add(time.Second)) {
			t.Errorf("swept at %v, started at %v", now, before)
		}
	case <-time.After(jobsPatience):
		t.Fatalf("no crawl sweep within %s of Start", jobsPatience)
	}
}

// startCrawlJobs starts jobs (analyses do nothing) until the test ends.
func startCrawlJobs(t *testing.T, jobs ports.Jobs) {
	t.Helper()
	if err := jobs.Start(context.Background(), func(context.Context, ports.AnalysisJob) error { return nil }); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = jobs.Stop(ctx)
	})
}

func crawlStats(t *testing.T, jobs ports.Jobs) ports.JobCounts {
	t.Helper()
	st, err := jobs.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st.Crawls
}

func testCrawlQueueRuns(t *testing.T, s CrawlQueueSubject) {
	u := newOwners(t, s.Accounts)
	ran := make(chan ports.CrawlJob, 8)
	var runs atomic.Int32
	s.Queue.SetCrawlWorker(func(_ context.Context, job ports.CrawlJob) error {
		ran <- job
		if runs.Add(1) == 1 {
			return &ports.SnoozeError{After: 10 * time.Millisecond}
		}
		return nil
	})
	startCrawlJobs(t, s.Jobs)
	c, jobID, err := s.Queue.CreateCrawlWithJob(context.Background(), newCrawl(u[1], "https://queued.example.com/", 0), 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Status != crawl.StatusQueued || c.ID == 0 || jobID == 0 {
		t.Fatalf("created %+v, job %d", c, jobID)
	}
	for i := range 2 {
		select {
		case job := <-ran:
			if job.ID != jobID || job.CrawlID != c.ID || job.UserID != u[1] || job.Attempt != 1 {
				t.Errorf("run %d = %+v, want job %d of crawl %d of user %d, attempt 1", i+1, job, jobID, c.ID, u[1])
			}
		case <-time.After(jobsPatience):
			t.Fatalf("run %d: none within %s", i+1, jobsPatience)
		}
	}
	waitFor(t, "the crawl job done", func() bool { st := crawlStats(t, s.Jobs); return st.Queued+st.Running == 0 })
}

func testCrawlQueueCap(t *testing.T, s CrawlQueueSubject) {
	u := newOwners(t, s.Accounts)
	ctx := context.Background()
	for i := range 2 {
		if _, _, err := s.Queue.CreateCrawlWithJob(ctx, newCrawl(u[1], "https://capped.example.com/", i), 2, nil); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := s.Queue.CreateCrawlWithJob(ctx, newCrawl(u[1], "https://capped.example.com/", 3), 2, nil)
	if !errors.Is(err, crawl.ErrActiveLimit) {
		t.Fatalf("third create = %v, want ErrActiveLimit", err)
	}
	if st := crawlStats(t, s.Jobs); st.Queued != 2 {
		t.Errorf("queued crawl jobs = %d, want 2 (the refused crawl has none)", st.Queued)
	}
	if _, n, err := s.Crawls.Crawls(ctx, u[1], mustCrawlQuery(t)); err != nil || n != 2 {
		t.Errorf("crawls = %d, %v; want 2", n, err)
	}
}

func testCrawlQueueDelete(t *testing.T, s CrawlQueueSubject) {
	u := newOwners(t, s.Accounts)
	ctx := context.Background()
	gone, _, err := s.Queue.CreateCrawlWithJob(ctx, newCrawl(u[1], "https://gone.example.com/", 0), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Queue.CreateCrawlWithJob(ctx, newCrawl(u[1], "https://kept.example.com/", 1), 0, nil); err != nil {
		t.Fatal(err)
	}
	if st := crawlStats(t, s.Jobs); st.Queued != 2 {
		t.Fatalf("queued crawl jobs = %d, want 2", st.Queued)
	}
	if err := s.Crawls.DeleteCrawl(ctx, u[1], gone.ID); err != nil {
		t.Fatal(err)
	}
	if st := crawlStats(t, s.Jobs); st.Queued != 1 {
		t.Errorf("after deleting a crawl: queued crawl jobs = %d, want 1", st.Queued)
	}
}

func mustCrawlQuery(t *testing.T) crawl.ListQuery {
	t.Helper()
	q, err := crawl.NewListQuery(crawl.ListParams{})
	if err != nil {
		t.Fatal(err)
	}
	return q
}
