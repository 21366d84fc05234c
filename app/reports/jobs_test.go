package reports_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// capped is scripted with a cap of analyses at once per user.
type capped struct {
	scripted
	cap int
}

func (c *capped) UserCap() int { return c.cap }

// failing answers every analysis with err.
type failing struct{ err error }

func (f failing) AnalyseWithScreenshots(context.Context, int64, string, pagecheck.RenderMode, report.ScreenshotMode) (pagecheck.Analysis, report.Screenshots, error) {
	return pagecheck.Analysis{}, report.Screenshots{}, f.err
}

func storeReport(t *testing.T, store *memory.ReportStore, status report.Status) report.Report {
	t.Helper()
	now := time.Now().UTC()
	r, err := store.CreateReport(context.Background(), report.Report{UserID: 1, URL: "https://example.com/", Project: "example.com",
		Status: status, CreatedAt: now, UpdatedAt: now, GeneratedAt: now})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRunAnalysisUserCap: a job snoozes while its user has the cap's worth
// of analyses running (in the store: every process), not counting its own
// report, running when a crashed run is rescued.
func TestRunAnalysisUserCap(t *testing.T) {
	ctx := context.Background()
	store := memory.NewReportStore()
	an := &capped{scripted: scripted{score: 80}, cap: 1}
	rs := reports.New(store, an, cheapPasswords)
	busy := storeReport(t, store, report.StatusRunning)
	queued := storeReport(t, store, report.StatusPending)
	var snooze *ports.SnoozeError
	if err := rs.RunAnalysis(ctx, ports.AnalysisJob{ReportID: queued.ID, UserID: 1, Attempt: 1}); !errors.As(err, &snooze) {
		t.Fatalf("RunAnalysis over the cap = %v, want a snooze", err)
	}
	if an.calls.Load() != 0 {
		t.Errorf("analysed %d times over the cap", an.calls.Load())
	}
	// The running report's own job (a rescue) runs.
	if err := rs.RunAnalysis(ctx, ports.AnalysisJob{ReportID: busy.ID, UserID: 1, Attempt: 2}); err != nil {
		t.Fatalf("RunAnalysis of the running report = %v", err)
	}
	if err := rs.RunAnalysis(ctx, ports.AnalysisJob{ReportID: queued.ID, UserID: 1, Attempt: 1}); err != nil {
		t.Fatalf("RunAnalysis under the cap = %v", err)
	}
	for _, id := range []int64{busy.ID, queued.ID} {
		if r, err := store.Report(ctx, 1, id); err != nil || r.Status != report.StatusGenerated || r.Score != 80 {
			t.Errorf("report %d = %+v, %v; want generated", id, r, err)
		}
	}
}

// TestRunAnalysisRetries: timeouts are retried until the third analysis,
// which fails the report; a refused target fails it at once.
func TestRunAnalysisRetries(t *testing.T) {
	ctx := context.Background()
	store := memory.NewReportStore()
	timeout := &webpage.FetchError{Reason: "no response within 15s", Transient: true}
	rs := reports.New(store, failing{timeout}, cheapPasswords)
	r := storeReport(t, store, report.StatusPending)
	var retry *ports.RetryError
	for attempt := 1; attempt <= 2; attempt++ {
		if err := rs.RunAnalysis(ctx, ports.AnalysisJob{ReportID: r.ID, UserID: 1, Attempt: attempt}); !errors.As(err, &retry) {
			t.Fatalf("attempt %d = %v, want a retry", attempt, err)
		}
	}
	if err := rs.RunAnalysis(ctx, ports.AnalysisJob{ReportID: r.ID, UserID: 1, Attempt: 3}); err == nil || errors.As(err, &retry) {
		t.Fatalf("attempt 3 = %v, want the job given up", err)
	}
	if got, _ := store.Report(ctx, 1, r.ID); got.Status != report.StatusFailed || got.Attempts != 3 || got.Failure != timeout.Reason {
		t.Errorf("report = %+v, want failed after 3 attempts with the reason", got)
	}
	refused := reports.New(store, failing{&webpage.FetchError{Reason: "refused: private address", Refused: true}}, cheapPasswords)
	r2 := storeReport(t, store, report.StatusPending)
	if err := refused.RunAnalysis(ctx, ports.AnalysisJob{ReportID: r2.ID, UserID: 1, Attempt: 1}); err == nil || errors.As(err, &retry) {
		t.Fatalf("refused = %v, want the job given up", err)
	}
	if got, _ := store.Report(ctx, 1, r2.ID); got.Status != report.StatusFailed || got.Attempts != 1 {
		t.Errorf("refused report = %+v, want failed after 1 attempt", got)
	}
	// A finished report's job does nothing.
	if err := refused.RunAnalysis(ctx, ports.AnalysisJob{ReportID: r2.ID, UserID: 1, Attempt: 2}); err != nil {
		t.Errorf("job of a finished report = %v, want nil", err)
	}
}

// TestDefaultWait: the fetch deadline + 5 s, within the cap below the
// server's write timeout.
func TestDefaultWait(t *testing.T) {
	store := memory.NewReportStore()
	jobs := memory.NewJobs(store, ports.JobSettings{})
	for _, tc := range []struct {
		s    ports.JobSettings
		want time.Duration
	}{
		{ports.JobSettings{}, 20 * time.Second},
		{ports.JobSettings{FetchDeadline: 3 * time.Second}, 8 * time.Second},
		{ports.JobSettings{FetchDeadline: 15 * time.Second, WaitCap: 10 * time.Second}, 10 * time.Second},
	} {
		rs := reports.New(store, &scripted{}, cheapPasswords, reports.WithJobs(jobs, tc.s, nil))
		if got := rs.DefaultWait(); got != tc.want {
			t.Errorf("DefaultWait with %+v = %s, want %s", tc.s, got, tc.want)
		}
	}
}
