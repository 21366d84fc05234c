package reports_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// admissionSetup is the report use cases with jobs (a stopped in-memory
// queue) over an analyser whose daily quota is daily a day, on a frozen
// clock.
func admissionSetup(t *testing.T, daily int) (*reports.Reports, *memory.ReportStore, *memory.Jobs) {
	t.Helper()
	an := reports.NewAnalyser(&gatedFetcher{}, reports.AnalyserConfig{UserDaily: ratelimit.Limit{Requests: daily, Window: 24 * time.Hour},
		HostLimit: reports.NoLimit, AddressLimit: reports.NoLimit, Limiter: fixedLimiter()})
	store := memory.NewReportStore()
	jobs := memory.NewJobs(store, ports.JobSettings{})
	return reports.New(store, an, cheapPasswords, reports.WithJobs(jobs, ports.JobSettings{}, nil)), store, jobs
}

func urls(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "https://site" + strconv.Itoa(i) + ".example.com/"
	}
	return out
}

// TestBatchIsAdmittedAgainstTheDailyQuota: a batch takes its URLs from the
// daily quota when it is accepted, all or none: one that does not fit is
// a daily QuotaError saying how many fit now and when all do, and queues
// nothing; one larger than the whole quota is invalid (it never fits).
func TestBatchIsAdmittedAgainstTheDailyQuota(t *testing.T) {
	ctx := context.Background()
	rs, store, jobs := admissionSetup(t, 10) // one back every 2.4 h
	if _, err := rs.CreateBatch(ctx, 1, reports.NewBatch{URLs: urls(7)}); err != nil {
		t.Fatal(err)
	}
	_, err := rs.CreateBatch(ctx, 1, reports.NewBatch{URLs: urls(5)})
	var qe *reports.QuotaError
	if !errors.As(err, &qe) || !qe.Daily || qe.Asked != 5 || qe.Fit != 3 || qe.Limit != 10 {
		t.Fatalf("5 more = %v (%+v); want a daily QuotaError: 3 of 5 fit", err, qe)
	}
	if want := 2 * 24 * time.Hour / 10; qe.RetryAfter() != want {
		t.Errorf("RetryAfter = %v, want %v (until all 5 fit)", qe.RetryAfter(), want)
	}
	if msg := qe.Error(); !strings.Contains(msg, "3 of these 5 fit now") || !strings.Contains(msg, "at most 10 analyses a day") {
		t.Errorf("message %q does not say how many fit", msg)
	}
	if _, n, _ := store.Reports(ctx, 1, mustQueryAll(t)); n != 7 {
		t.Errorf("%d reports stored, want the first batch's 7 only", n)
	}
	if st, _ := jobs.Stats(ctx); st.Queued != 7 {
		t.Errorf("%d jobs queued, want 7", st.Queued)
	}
	// The denied batch took nothing: the 3 left fit.
	if _, err := rs.CreateBatch(ctx, 1, reports.NewBatch{URLs: urls(3)}); err != nil {
		t.Errorf("the 3 left: %v", err)
	}
	// Larger than the whole quota: never fits.
	var ve *report.ValidationError
	if _, err := rs.CreateBatch(ctx, 2, reports.NewBatch{URLs: urls(11)}); !errors.As(err, &ve) || len(ve.Fields["urls"]) == 0 {
		t.Errorf("11 URLs under a quota of 10: %v, want invalid urls", err)
	}
	// One request is charged as it is accepted too, queued or not.
	if _, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://example.com/", Wait: new(time.Duration)}); !errors.As(err, &qe) || !qe.Daily {
		t.Errorf("a queued create over the quota: %v, want a daily QuotaError", err)
	}
}

// TestJobsDoNotTakeTheDailyQuota: the work a request admitted runs in its
// jobs free of the daily quota, retries and snoozes included, even when
// the quota is used up meanwhile.
func TestJobsDoNotTakeTheDailyQuota(t *testing.T) {
	ctx := context.Background()
	rs, store, _ := admissionSetup(t, 3)
	out, err := rs.CreateBatch(ctx, 1, reports.NewBatch{URLs: urls(3)})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range out.Reports {
		// Two runs each: the first as if it failed and was retried.
		for attempt := 1; attempt <= 2; attempt++ {
			if _, err := store.UpdateReport(ctx, 1, r.ID, func(r *report.Report) error { r.Status = report.StatusPending; return nil }); err != nil {
				t.Fatal(err)
			}
			if err := rs.RunAnalysis(ctx, ports.AnalysisJob{ReportID: r.ID, UserID: 1, Attempt: attempt}); err != nil {
				t.Fatalf("run %d of report %d = %v; want done, the quota was taken when the batch was accepted", attempt, r.ID, err)
			}
		}
		if got, _ := store.Report(ctx, 1, r.ID); got.Status != report.StatusGenerated {
			t.Errorf("report %d = %s, want generated", r.ID, got.Status)
		}
	}
	// Six runs later the quota is still as the batch left it: used up.
	var qe *reports.QuotaError
	if _, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://example.com/"}); !errors.As(err, &qe) || !qe.Daily {
		t.Errorf("a create after the batch: %v, want a daily QuotaError", err)
	}
}

func mustQueryAll(t *testing.T) report.ReportQuery {
	t.Helper()
	q, err := report.NewReportQuery(report.ReportParams{})
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestAdmittedWorkRefusedForNowIsQueued: with jobs, an analysis accepted
// (and charged) but refused in its request only for now, the pool busy, is
// stored pending for its job rather than failing; a refusal that will not
// pass still fails the request.
func TestAdmittedWorkRefusedForNowIsQueued(t *testing.T) {
	ctx := context.Background()
	store := memory.NewReportStore()
	jobs := memory.NewJobs(store, ports.JobSettings{})
	an := &scripted{err: reports.ErrBusy}
	rs := reports.New(store, an, cheapPasswords, reports.WithJobs(jobs, ports.JobSettings{}, nil))
	c, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://example.com/"})
	if err != nil || c.Outcome != report.OutcomeAccepted || c.Status != report.StatusPending {
		t.Fatalf("create while busy = %+v, %v; want accepted, pending", c, err)
	}
	if st, _ := jobs.Stats(ctx); st.Queued != 1 {
		t.Errorf("%d jobs queued, want 1", st.Queued)
	}
	u, err := rs.Update(ctx, 1, c.ID, reports.ReportUpdate{Reanalyse: true})
	if err != nil || u.Status != report.StatusPending {
		t.Errorf("re-analysis while busy = %+v, %v; want pending", u, err)
	}
	an.err = report.Invalid("url", "refused")
	if _, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://example.org/"}); err == nil {
		t.Error("a refusal that will not pass was queued")
	}
}
