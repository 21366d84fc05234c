package porttest

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webhook"
	"github.com/pinsight/pinsight/ports"
)

// deliveriesTo returns the deliveries of the user's webhook w, oldest
// first.
func deliveriesTo(t *testing.T, s JobsSubject, w webhook.Webhook) []webhook.Delivery {
	t.Helper()
	ds, err := s.Webhooks.Deliveries(context.Background(), w.UserID, w.ID, 100)
	if err != nil {
		t.Fatalf("Deliveries(%d) = %v", w.ID, err)
	}
	for i, j := 0, len(ds)-1; i < j; i, j = i+1, j-1 {
		ds[i], ds[j] = ds[j], ds[i]
	}
	return ds
}

// queuedDeliveries is how many delivery jobs wait in s's queue.
func queuedDeliveries(t *testing.T, s JobsSubject) int {
	t.Helper()
	st, err := s.Jobs.Stats(context.Background())
	if err != nil {
		t.Fatalf("Stats = %v", err)
	}
	return st.Deliveries.Queued
}

// finish is an update that stores an analysis of score at at, as the
// analysis' worker does.
func finish(score int, at time.Time) func(*report.Report) error {
	return func(r *report.Report) error {
		url := r.URL
		err := r.Apply(pagecheck.Analysis{URL: url, Score: score, Results: sampleResults()}, at)
		r.UpdatedAt = at
		return err
	}
}

// testFinishQueuesDeliveries: a write that finishes a report stores one
// delivery to each of its user's webhooks that wants the event, with its
// job, in the write's transaction: a write that fails stores none, a write
// that finishes nothing (pending, running, a finished report's privacy)
// stores none, each finish stores exactly one set, however many writers
// race to finish the same report.
func testFinishQueuesDeliveries(t *testing.T, s JobsSubject) {
	ctx := context.Background()
	w1 := newWebhook(t, s, 1, "https://a.example.com/hook")
	w2 := newWebhook(t, s, 1, "https://b.example.com/hook")
	other := newWebhook(t, s, 2, "https://c.example.com/hook")
	counts := func(what string, want int) {
		t.Helper()
		n1, n2, n3 := len(deliveriesTo(t, s, w1)), len(deliveriesTo(t, s, w2)), len(deliveriesTo(t, s, other))
		if n1 != want || n2 != want || n3 != 0 {
			t.Fatalf("%s: deliveries to the user's webhooks %d and %d, to another user's %d; want %d, %d, 0", what, n1, n2, n3, want, want)
		}
		if q := queuedDeliveries(t, s); q != 2*want {
			t.Fatalf("%s: %d delivery jobs queued, want %d", what, q, 2*want)
		}
	}

	// Stored pending, started: nothing finished.
	r, err := s.Store.CreateReport(ctx, pendingReport("https://finish.example.com/"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Store.StartAnalysis(ctx, 1, r.ID, 0); err != nil {
		t.Fatal(err)
	}
	counts("pending, then running", 0)

	// A finishing write that fails after the report would finish stores
	// nothing, its deliveries included.
	boom := errors.New("boom")
	_, err = s.Store.UpdateReport(ctx, 1, r.ID, func(r *report.Report) error {
		if err := finish(80, time.Now())(r); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("UpdateReport = %v, want the update's error", err)
	}
	counts("a finishing write that failed", 0)

	// Writers racing to finish the running report (a late analysis and its
	// job): one finishes it, once.
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for range 6 {
		wg.Go(func() {
			_, err := s.Store.UpdateReport(ctx, 1, r.ID, func(r *report.Report) error {
				if r.Status.Finished() {
					return report.ErrFinished
				}
				return finish(80, time.Now())(r)
			})
			if err == nil {
				mu.Lock()
				won++
				mu.Unlock()
			} else if !errors.Is(err, report.ErrFinished) {
				t.Errorf("racing finish = %v", err)
			}
		})
	}
	wg.Wait()
	if won != 1 {
		t.Fatalf("%d racing writers finished the report, want 1", won)
	}
	counts("finished", 1)
	done, err := s.Store.Report(ctx, 1, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	d := deliveriesTo(t, s, w1)[0]
	var ev webhook.Event
	if err := json.Unmarshal(d.Body, &ev); err != nil || ev.Event != webhook.EventReportFinished || ev.Report.ID != r.ID ||
		ev.Report.Status != string(report.StatusGenerated) || ev.Report.Score != 80 || !ev.Report.GeneratedAt.Equal(done.GeneratedAt) ||
		d.ReportID != r.ID || d.CrawlID != 0 || d.UserID != 1 || d.Status != webhook.DeliveryPending || d.Attempts != 0 || d.Event != webhook.EventReportFinished {
		t.Errorf("delivery = %+v, body %s (%v); want a pending report.finished of report %d, generated, score 80", d, d.Body, err, r.ID)
	}
	if d2 := deliveriesTo(t, s, w2)[0]; string(d2.Body) != string(d.Body) || d2.ID == d.ID {
		t.Errorf("the other webhook's delivery %+v, want its own with the same body", d2)
	}

	// Writes of the finished report that finish nothing store nothing.
	if _, err := s.Store.UpdateReport(ctx, 1, r.ID, func(r *report.Report) error {
		r.Privacy, r.Schedule, r.NextRunAt = report.Public, report.ScheduleDaily, time.Now().Add(24*time.Hour)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	counts("privacy and schedule of a finished report", 1)

	// A re-analysis stored at once finishes it again; one through pending
	// (a scheduled run) too, and it fails this time.
	if _, err := s.Store.UpdateReport(ctx, 1, r.ID, finish(60, done.GeneratedAt.Add(time.Minute))); err != nil {
		t.Fatal(err)
	}
	counts("re-analysed at once", 2)
	if _, err := s.Store.UpdateReport(ctx, 1, r.ID, func(r *report.Report) error { r.Status = report.StatusPending; return nil }); err != nil {
		t.Fatal(err)
	}
	counts("pending again", 2)
	failed, err := s.Store.UpdateReport(ctx, 1, r.ID, func(r *report.Report) error {
		r.Status, r.Failure = report.StatusFailed, "no answer"
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	counts("failed", 3)
	if err := json.Unmarshal(deliveriesTo(t, s, w2)[2].Body, &ev); err != nil || ev.Report.Status != string(report.StatusFailed) ||
		ev.Report.Failure != "no answer" || ev.Report.ID != failed.ID {
		t.Errorf("event of the failed run = %+v, %v", ev, err)
	}

	// Created finished: queued with the insert; a create that stores
	// nothing (a lost idempotency claim) queues nothing.
	idem := report.Idempotency{UserID: 1, Key: "lost", Claim: "not-held", Outcome: report.OutcomeCreated}
	if _, err := s.Store.CreateReports(ctx, []report.Report{newReport(1, "https://lost.example.com/", 50, 1, report.Private)}, &idem); !errors.Is(err, report.ErrClaimLost) {
		t.Fatalf("CreateReports with a lost claim = %v, want ErrClaimLost", err)
	}
	counts("a create that failed", 3)
	created, err := s.Store.CreateReports(ctx, []report.Report{
		newReport(1, "https://new.example.com/", 50, 1, report.Private), pendingReport("https://queued.example.com/")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	counts("created, one finished", 4)
	if last := deliveriesTo(t, s, w1)[3]; last.ReportID != created[0].ID {
		t.Errorf("delivery of the created report is of report %d, want %d", last.ReportID, created[0].ID)
	}

	// The queued jobs run.
	var ran sync.Map
	s.WebhookQueue.SetDeliveryWorker(func(_ context.Context, job ports.DeliveryJob) error {
		ran.Store(job.DeliveryID, true)
		return nil
	})
	startJobs(t, s, newJobRecorder(nil))
	waitFor(t, "every delivery's job runs", func() bool {
		for _, w := range []webhook.Webhook{w1, w2} {
			for _, d := range deliveriesTo(t, s, w) {
				if _, ok := ran.Load(d.ID); !ok {
					return false
				}
			}
		}
		return true
	})
}
