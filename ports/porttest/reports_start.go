package porttest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// pendingOf is a report of user waiting for its first analysis.
func pendingOf(user int64, n int) report.Report {
	r := pendingReport(fmt.Sprintf("https://pending%d.example", n))
	r.UserID = user
	return r
}

// testStartAnalysis: StartAnalysis marks a report running, refuses a
// finished one, another user's and one over the user's limit, and its
// limit holds when starts race.
func testStartAnalysis(t *testing.T, s ports.ReportStore, u owners) {
	ctx := context.Background()
	a := mustCreate(t, s, pendingOf(u[1], 1))
	got, err := s.StartAnalysis(ctx, u[1], a.ID, 1)
	if err != nil || got.Status != report.StatusRunning || got.Attempts != 1 {
		t.Fatalf("StartAnalysis = %v (status %q, attempts %d), want running, 1 attempt", err, got.Status, got.Attempts)
	}
	if stored, _ := s.Report(ctx, u[1], a.ID); stored.Status != report.StatusRunning || stored.Attempts != 1 {
		t.Errorf("stored report: status %q, attempts %d; want running, 1", stored.Status, stored.Attempts)
	}
	// The running report itself does not count: a crashed run starts again.
	if again, err := s.StartAnalysis(ctx, u[1], a.ID, 1); err != nil || again.Attempts != 2 {
		t.Errorf("StartAnalysis of the running report = %v (attempts %d), want nil, 2", err, again.Attempts)
	}
	b := mustCreate(t, s, pendingOf(u[1], 2))
	if _, err := s.StartAnalysis(ctx, u[1], b.ID, 1); !errors.Is(err, report.ErrRunningLimit) {
		t.Errorf("a second start with limit 1 = %v, want report.ErrRunningLimit", err)
	}
	if r, _ := s.Report(ctx, u[1], b.ID); r.Status != report.StatusPending || r.Attempts != 0 {
		t.Errorf("a refused start changed the report: status %q, attempts %d", r.Status, r.Attempts)
	}
	if _, err := s.StartAnalysis(ctx, u[1], b.ID, 0); err != nil {
		t.Errorf("a start with no limit = %v", err)
	}
	if _, err := s.StartAnalysis(ctx, u[2], b.ID, 0); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("another user's start = %v, want report.ErrNotFound", err)
	}
	if _, err := s.StartAnalysis(ctx, u[1], b.ID+1000, 0); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("a missing report's start = %v, want report.ErrNotFound", err)
	}
	done := mustCreate(t, s, newReport(u[1], "https://done.example", 80, 3, report.Private))
	if _, err := s.StartAnalysis(ctx, u[1], done.ID, 0); !errors.Is(err, report.ErrFinished) {
		t.Errorf("a finished report's start = %v, want report.ErrFinished", err)
	}
	// Another user's running reports do not count against this one's.
	c := mustCreate(t, s, pendingOf(u[2], 4))
	if _, err := s.StartAnalysis(ctx, u[2], c.ID, 1); err != nil {
		t.Errorf("user 2's start while user 1 runs two = %v", err)
	}

	// Racing starts: 12 pending reports of user 3, limit 3: exactly 3 start.
	const n, limit = 12, 3
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = mustCreate(t, s, pendingOf(u[3], 10+i)).ID
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	started := 0
	for _, id := range ids {
		wg.Go(func() {
			_, err := s.StartAnalysis(ctx, u[3], id, limit)
			switch {
			case err == nil:
				mu.Lock()
				started++
				mu.Unlock()
			case !errors.Is(err, report.ErrRunningLimit):
				t.Errorf("racing StartAnalysis = %v", err)
			}
		})
	}
	wg.Wait()
	if started != limit {
		t.Errorf("%d racing starts with limit %d started %d", n, limit, started)
	}
}
