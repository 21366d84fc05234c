package porttest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// JobsSubject is a queue under test and the report store it writes to,
// which queues webhook deliveries on it (see ports.ReportStore). User 1
// must exist in the store.
type JobsSubject struct {
	Jobs    ports.Jobs
	Store   ports.ReportStore
	History ports.ReportHistory // the store's history
	// Webhooks and WebhookQueue (the store's and the queue's) are needed by
	// TestWebhooks only.
	Webhooks     ports.WebhookStore
	WebhookQueue ports.WebhookQueue
	// Crawls is the crawl store of the same database, wired to the same
	// queue of deliveries (TestWebhooks's crawl.finished test; skipped
	// when nil).
	Crawls ports.CrawlStore
}

// jobsPatience bounds the wait for a job the suite expects to run: queues
// poll (River every second) and retry after a backoff of a second or more.
const jobsPatience = 20 * time.Second

// TestJobs checks a Jobs queue. newSubject must return a stopped queue
// over an empty store each time it is called; the suite starts and stops
// it.
func TestJobs(t *testing.T, newSubject func(t *testing.T) JobsSubject) {
	t.Run("create runs the job", func(t *testing.T) { testJobsCreateRuns(t, newSubject(t)) })
	t.Run("scheduled later", func(t *testing.T) { testJobsScheduled(t, newSubject(t)) })
	t.Run("retry and snooze", func(t *testing.T) { testJobsRetrySnooze(t, newSubject(t)) })
	t.Run("permanent failure", func(t *testing.T) { testJobsPermanent(t, newSubject(t)) })
	t.Run("cancel", func(t *testing.T) { testJobsCancel(t, newSubject(t)) })
	t.Run("atomic with the report", func(t *testing.T) { testJobsAtomic(t, newSubject(t)) })
	t.Run("many", func(t *testing.T) { testJobsMany(t, newSubject(t)) })
	t.Run("scheduled analyses", func(t *testing.T) { testJobsDue(t, newSubject(t)) })
	t.Run("history", func(t *testing.T) { testHistory(t, newSubject(t)) })
	t.Run("delete drops waiting jobs", func(t *testing.T) { testJobsDeleteDropsJobs(t, newSubject(t)) })
}

// jobRecorder is a worker that records its runs and answers with next.
type jobRecorder struct {
	mu   sync.Mutex
	runs []ports.AnalysisJob
	next func(job ports.AnalysisJob, n int) error // n: runs so far, this one included
	ran  chan ports.AnalysisJob
}

func newJobRecorder(next func(job ports.AnalysisJob, n int) error) *jobRecorder {
	return &jobRecorder{next: next, ran: make(chan ports.AnalysisJob, 64)}
}

func (r *jobRecorder) work(_ context.Context, job ports.AnalysisJob) error {
	r.mu.Lock()
	r.runs = append(r.runs, job)
	n := len(r.runs)
	r.mu.Unlock()
	r.ran <- job
	if r.next == nil {
		return nil
	}
	return r.next(job, n)
}

func (r *jobRecorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.runs)
}

// waitRun returns the next run, or fails after jobsPatience.
func (r *jobRecorder) waitRun(t *testing.T, what string) ports.AnalysisJob {
	t.Helper()
	select {
	case job := <-r.ran:
		return job
	case <-time.After(jobsPatience):
		t.Fatalf("%s: no run within %s", what, jobsPatience)
	}
	return ports.AnalysisJob{}
}

// startJobs starts s's queue with rec and stops it at the end of the test.
func startJobs(t *testing.T, s JobsSubject, rec *jobRecorder) {
	t.Helper()
	if err := s.Jobs.Start(context.Background(), rec.work); err != nil {
		t.Fatalf("Start = %v", err)
	}
	if err := s.Jobs.Start(context.Background(), rec.work); !errors.Is(err, ports.ErrJobsStopped) {
		t.Errorf("second Start = %v, want ErrJobsStopped", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.Jobs.Stop(ctx); err != nil {
			t.Errorf("Stop = %v", err)
		}
	})
}

func pendingReport(url string) report.Report {
	now := time.Now().UTC().Truncate(time.Second)
	project, _ := report.ProjectName(url)
	return report.Report{UserID: 1, URL: url, Project: project, Privacy: report.Private, Status: report.StatusPending,
		CreatedAt: now, UpdatedAt: now, GeneratedAt: now}
}

func testJobsCreateRuns(t *testing.T, s JobsSubject) {
	ctx := context.Background()
	rec := newJobRecorder(func(job ports.AnalysisJob, _ int) error {
		_, err := s.Store.UpdateReport(ctx, job.UserID, job.ReportID, func(r *report.Report) error {
			return r.Apply(pagecheck.Analysis{URL: r.URL, Score: 90, Results: pagecheck.Results{}}, time.Now().UTC())
		})
		return err
	})
	r, jobID, err := s.Jobs.CreateWithJob(ctx, pendingReport("https://example.com/"), nil, time.Time{})
	if err != nil || r.ID == 0 || jobID == 0 || r.Status != report.StatusPending {
		t.Fatalf("CreateWithJob = %+v, %d, %v", r, jobID, err)
	}
	startJobs(t, s, rec)
	job := rec.waitRun(t, "created job")
	if job.ID != jobID || job.ReportID != r.ID || job.UserID != 1 || job.Attempt != 1 {
		t.Errorf("job = %+v, want id %d report %d user 1 attempt 1", job, jobID, r.ID)
	}
	waitFor(t, "report generated", func() bool {
		got, err := s.Store.Report(ctx, 1, r.ID)
		return err == nil && got.Status == report.StatusGenerated && got.Score == 90
	})
	// A re-analysis enqueued with the update runs too.
	u, jobID2, err := s.Jobs.UpdateWithJob(ctx, 1, r.ID, func(r *report.Report) error { r.Status = report.StatusPending; return nil }, time.Time{})
	if err != nil || u.Status != report.StatusPending || jobID2 == jobID {
		t.Fatalf("UpdateWithJob = %+v, %d, %v", u, jobID2, err)
	}
	if job := rec.waitRun(t, "re-analysis"); job.ID != jobID2 || job.ReportID != r.ID {
		t.Errorf("re-analysis job = %+v, want id %d", job, jobID2)
	}
	if _, _, err := s.Jobs.UpdateWithJob(ctx, 2, r.ID, func(*report.Report) error { return nil }, time.Time{}); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("UpdateWithJob of another user's report = %v, want ErrNotFound", err)
	}
	waitFor(t, "queue drained", func() bool {
		st, err := s.Jobs.Stats(ctx)
		return err == nil && st.Queued == 0 && st.Running == 0
	})
}

func testJobsScheduled(t *testing.T, s JobsSubject) {
	ctx := context.Background()
	rec := newJobRecorder(nil)
	startJobs(t, s, rec)
	at := time.Now().Add(3 * time.Second)
	if _, _, err := s.Jobs.CreateWithJob(ctx, pendingReport("https://later.example.com/"), nil, at); err != nil {
		t.Fatal(err)
	}
	if st, err := s.Jobs.Stats(ctx); err != nil || st.Queued != 1 {
		t.Errorf("Stats before the time = %+v, %v; want 1 queued", st, err)
	}
	rec.waitRun(t, "scheduled job")
	if early := time.Until(at); early > 0 {
		t.Errorf("the job ran %s before its time", early)
	}
}

func testJobsRetrySnooze(t *testing.T, s JobsSubject) {
	ctx := context.Background()
	rec := newJobRecorder(func(_ ports.AnalysisJob, n int) error {
		switch n {
		case 1:
			return &ports.SnoozeError{After: 100 * time.Millisecond, Err: errors.New("quota")}
		case 2:
			return &ports.RetryError{Err: errors.New("timeout")}
		}
		return nil
	})
	startJobs(t, s, rec)
	if _, _, err := s.Jobs.CreateWithJob(ctx, pendingReport("https://flaky.example.com/"), nil, time.Time{}); err != nil {
		t.Fatal(err)
	}
	attempts := []int{rec.waitRun(t, "first run").Attempt, rec.waitRun(t, "after the snooze").Attempt, rec.waitRun(t, "after the retry").Attempt}
	if attempts[0] != 1 || attempts[1] != 1 || attempts[2] != 2 {
		t.Errorf("attempts = %v, want [1 1 2]: a snooze is not an attempt, a retry is", attempts)
	}
}

func testJobsPermanent(t *testing.T, s JobsSubject) {
	ctx := context.Background()
	rec := newJobRecorder(func(ports.AnalysisJob, int) error { return errors.New("refused") })
	startJobs(t, s, rec)
	if _, _, err := s.Jobs.CreateWithJob(ctx, pendingReport("https://refused.example.com/"), nil, time.Time{}); err != nil {
		t.Fatal(err)
	}
	rec.waitRun(t, "the job")
	waitFor(t, "a failed job", func() bool {
		st, err := s.Jobs.Stats(ctx)
		return err == nil && st.Failed == 1 && st.Queued == 0
	})
	if n := rec.count(); n != 1 {
		t.Errorf("runs = %d, want 1: a plain error ends the job", n)
	}
}

func testJobsCancel(t *testing.T, s JobsSubject) {
	ctx := context.Background()
	rec := newJobRecorder(nil)
	startJobs(t, s, rec)
	_, id, err := s.Jobs.CreateWithJob(ctx, pendingReport("https://cancelled.example.com/"), nil, time.Now().Add(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Jobs.CancelJob(ctx, id); err != nil {
		t.Fatalf("CancelJob = %v", err)
	}
	if err := s.Jobs.CancelJob(ctx, id+1000); err != nil {
		t.Errorf("CancelJob of an unknown job = %v, want nil", err)
	}
	// A job due later, to know the queue ran past the cancelled one's time.
	if _, _, err := s.Jobs.CreateWithJob(ctx, pendingReport("https://after.example.com/"), nil, time.Now().Add(3*time.Second)); err != nil {
		t.Fatal(err)
	}
	if job := rec.waitRun(t, "the job after"); job.ID == id {
		t.Fatalf("the cancelled job ran")
	}
	if n := rec.count(); n != 1 {
		t.Errorf("runs = %d, want 1 (the cancelled job must not run)", n)
	}
}

func testJobsAtomic(t *testing.T, s JobsSubject) {
	ctx := context.Background()
	rec := newJobRecorder(nil)
	r, _, err := s.Jobs.CreateWithJob(ctx, pendingReport("https://atomic.example.com/"), nil, time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	// An update that fails enqueues nothing.
	boom := errors.New("boom")
	if _, _, err := s.Jobs.UpdateWithJob(ctx, 1, r.ID, func(*report.Report) error { return boom }, time.Time{}); !errors.Is(err, boom) {
		t.Fatalf("UpdateWithJob = %v, want the update's error", err)
	}
	// A lost idempotency claim stores neither the report nor its job.
	idem := report.Idempotency{UserID: 1, Key: "k", Claim: "not-held", Outcome: report.OutcomeAccepted}
	if _, _, err := s.Jobs.CreateWithJob(ctx, pendingReport("https://lost.example.com/"), &idem, time.Time{}); !errors.Is(err, report.ErrClaimLost) {
		t.Fatalf("CreateWithJob with a lost claim = %v, want ErrClaimLost", err)
	}
	if _, n, err := s.Store.Reports(ctx, 1, mustQuery(t)); err != nil || n != 1 {
		t.Errorf("reports = %d, %v; want only the first", n, err)
	}
	st, err := s.Jobs.Stats(ctx)
	if err != nil || st.Queued != 1 {
		t.Errorf("Stats = %+v, %v; want the first job only", st, err)
	}
	startJobs(t, s, rec)
	time.Sleep(1500 * time.Millisecond) // past a poll: nothing is due
	if n := rec.count(); n != 0 {
		t.Errorf("runs = %d, want none", n)
	}
}

func mustQuery(t *testing.T) report.ReportQuery {
	t.Helper()
	q, err := report.NewReportQuery(report.ReportParams{})
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// waitFor polls cond until it holds, failing after jobsPatience.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(jobsPatience)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, jobsPatience)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func testJobsMany(t *testing.T, s JobsSubject) {
	ctx := context.Background()
	rec := newJobRecorder(nil)
	later := time.Now().Add(time.Hour)
	rs, ids, err := s.Jobs.CreateManyWithJobs(ctx,
		[]report.Report{pendingReport("https://a.example.com/"), pendingReport("https://b.example.com/"), pendingReport("https://c.example.com/")},
		nil, []time.Time{{}, later, {}})
	if err != nil || len(rs) != 3 || len(ids) != 3 || rs[0].ID >= rs[1].ID || rs[1].ID >= rs[2].ID {
		t.Fatalf("CreateManyWithJobs = %+v, %v, %v", rs, ids, err)
	}
	startJobs(t, s, rec)
	got := map[int64]bool{rec.waitRun(t, "first").ReportID: true, rec.waitRun(t, "second").ReportID: true}
	if !got[rs[0].ID] || !got[rs[2].ID] {
		t.Errorf("ran reports %v, want %d and %d (the second is due in an hour)", got, rs[0].ID, rs[2].ID)
	}
	if st, err := s.Jobs.Stats(ctx); err != nil || st.Queued != 1 {
		t.Errorf("Stats = %+v, %v; want the later job queued", st, err)
	}
}

func testJobsDue(t *testing.T, s JobsSubject) {
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	mk := func(url string, sch report.Schedule, next time.Time, st report.Status) report.Report {
		r := pendingReport(url)
		r.Status, r.Schedule, r.NextRunAt = st, sch, next
		got, err := s.Store.CreateReport(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	due := mk("https://due.example.com/", report.ScheduleDaily, now.Add(-time.Minute), report.StatusGenerated)
	mk("https://later.example.com/", report.ScheduleWeekly, now.Add(time.Hour), report.StatusGenerated)
	mk("https://off.example.com/", report.ScheduleOff, time.Time{}, report.StatusGenerated)
	mk("https://busy.example.com/", report.ScheduleDaily, now.Add(-time.Minute), report.StatusPending)
	n, err := s.Jobs.EnqueueDue(ctx, now, 10)
	if err != nil || n != 1 {
		t.Fatalf("EnqueueDue = %d, %v; want 1 (the due finished report)", n, err)
	}
	got, err := s.Store.Report(ctx, 1, due.ID)
	if err != nil || got.Status != report.StatusPending || got.Attempts != 0 || !got.NextRunAt.Equal(now.Add(24*time.Hour)) {
		t.Errorf("due report = %+v, %v; want pending, next run a day after now", got, err)
	}
	if n, err := s.Jobs.EnqueueDue(ctx, now, 10); err != nil || n != 0 {
		t.Errorf("second EnqueueDue = %d, %v; want nothing due", n, err)
	}
	rec := newJobRecorder(nil)
	startJobs(t, s, rec)
	if job := rec.waitRun(t, "the scheduled analysis"); job.ReportID != due.ID {
		t.Errorf("ran report %d, want %d", job.ReportID, due.ID)
	}
}

func testHistory(t *testing.T, s JobsSubject) {
	ctx := context.Background()
	r, err := s.Store.CreateReport(ctx, pendingReport("https://history.example.com/"))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Now().UTC().Truncate(time.Second)
	for i, failing := range [][]string{{"a", "b"}, {}, {"c"}} {
		run := report.Run{ReportID: r.ID, At: at.Add(time.Duration(i) * time.Hour), Score: 50 + i, Rating: pagecheck.RatingFor(50 + i), Failing: failing}
		if err := s.History.AddRun(ctx, 1, run); err != nil {
			t.Fatalf("AddRun %d = %v", i, err)
		}
	}
	runs, err := s.History.Runs(ctx, 1, r.ID, 2)
	if err != nil || len(runs) != 2 || runs[0].Score != 52 || runs[1].Score != 51 || !runs[0].At.Equal(at.Add(2*time.Hour)) ||
		len(runs[0].Failing) != 1 || runs[0].Failing[0] != "c" || len(runs[1].Failing) != 0 {
		t.Errorf("Runs(limit 2) = %+v, %v; want the last two, newest first", runs, err)
	}
	if runs, err := s.History.Runs(ctx, 2, r.ID, 10); err != nil || len(runs) != 0 {
		t.Errorf("another user's Runs = %+v, %v; want none", runs, err)
	}
	if err := s.Store.DeleteReport(ctx, 1, r.ID); err != nil {
		t.Fatal(err)
	}
	if runs, err := s.History.Runs(ctx, 1, r.ID, 10); err != nil || len(runs) != 0 {
		t.Errorf("Runs of a deleted report = %+v, %v; want none", runs, err)
	}
}

// testJobsDeleteDropsJobs: deleting a report or a project takes the
// analysis jobs waiting for them off the queue (they would only find their
// reports gone); other reports' jobs stay.
func testJobsDeleteDropsJobs(t *testing.T, s JobsSubject) {
	ctx := context.Background()
	later := time.Now().Add(time.Hour)
	r, _, err := s.Jobs.CreateWithJob(ctx, pendingReport("https://deleted.example.com/"), nil, later)
	if err != nil {
		t.Fatal(err)
	}
	many := []report.Report{pendingReport("https://gone-site.org/a"), pendingReport("https://gone-site.org/b"), pendingReport("https://kept.example.org/")}
	if _, _, err := s.Jobs.CreateManyWithJobs(ctx, many, nil, []time.Time{{}, later, later}); err != nil {
		t.Fatal(err)
	}
	queued := func() int {
		t.Helper()
		st, err := s.Jobs.Stats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return st.Queued
	}
	if n := queued(); n != 4 {
		t.Fatalf("queued = %d, want 4", n)
	}
	if err := s.Store.DeleteReport(ctx, 1, r.ID); err != nil {
		t.Fatal(err)
	}
	if n := queued(); n != 3 {
		t.Errorf("after deleting a report: queued = %d, want 3", n)
	}
	if n, err := s.Store.DeleteProject(ctx, 1, "gone-site.org"); err != nil || n != 2 {
		t.Fatalf("DeleteProject = %d, %v", n, err)
	}
	if n := queued(); n != 1 {
		t.Errorf("after deleting a project: queued = %d, want 1 (the other project's)", n)
	}
}
