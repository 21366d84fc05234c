package reports_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webpage"
)

// gated is an analyser whose calls wait for release; entered tells when
// one started, deadline records the context's deadline.
type gated struct {
	scripted
	entered  chan struct{}
	release  chan struct{}
	mu       sync.Mutex
	deadline time.Time
}

func (g *gated) AnalyseWithScreenshots(ctx context.Context, userID int64, rawURL string, mode pagecheck.RenderMode, shots report.ScreenshotMode) (pagecheck.Analysis, report.Screenshots, error) {
	g.mu.Lock()
	g.deadline, _ = ctx.Deadline()
	g.mu.Unlock()
	g.entered <- struct{}{}
	<-g.release
	return g.scripted.AnalyseWithScreenshots(ctx, userID, rawURL, mode, shots)
}

// TestCreateIdempotent: a request sent again with its Idempotency-Key
// analyses nothing and answers the first status with the report's current
// state; other input under the key is refused; keys are per user.
func TestCreateIdempotent(t *testing.T) {
	ctx := context.Background()
	an := &scripted{score: 70}
	store := memory.NewReportStore()
	rs := reports.New(store, an, cheapPasswords)
	in := reports.NewReport{URL: "https://example.com/", IdempotencyKey: "order-1"}
	first, err := rs.Create(ctx, 1, in)
	if err != nil || first.Outcome != report.OutcomeCreated || first.Replayed || first.ID == 0 {
		t.Fatalf("first Create = %+v, %v", first, err)
	}
	if _, err := rs.Update(ctx, 1, first.ID, reports.ReportUpdate{Privacy: ptr(0)}); err != nil {
		t.Fatal(err)
	}
	for _, again := range []reports.NewReport{in, {URL: "https://example.com/", Privacy: ptr(1), IdempotencyKey: "order-1"}} {
		got, err := rs.Create(ctx, 1, again)
		if err != nil || !got.Replayed || got.Outcome != report.OutcomeCreated || got.ID != first.ID || got.Privacy != report.Public {
			t.Errorf("replay = %+v, %v; want report %d as it is now (privacy 0), replayed", got, err, first.ID)
		}
	}
	if n := an.calls.Load(); n != 1 {
		t.Errorf("%d analyses for one key, want 1", n)
	}
	for _, other := range []reports.NewReport{
		{URL: "https://example.com/other", IdempotencyKey: "order-1"},
		{URL: "https://example.com/", Privacy: ptr(0), IdempotencyKey: "order-1"},
		{URL: "https://example.com/", Privacy: ptr(2), Password: ptr("open sesame"), IdempotencyKey: "order-1"},
	} {
		if _, err := rs.Create(ctx, 1, other); fieldOf(err) != report.IdempotencyKeyField {
			t.Errorf("the key with other input %+v: err = %v, want 422 on %s", other, err, report.IdempotencyKeyField)
		}
	}
	if got, err := rs.Create(ctx, 2, in); err != nil || got.Replayed || got.ID == first.ID {
		t.Errorf("another user's key of the same text = %+v, %v; want a report of its own", got, err)
	}
	// Passwords are part of the input too.
	prot := reports.NewReport{URL: "https://example.com/p", Privacy: ptr(2), Password: ptr("open sesame"), IdempotencyKey: "order-2"}
	if _, err := rs.Create(ctx, 1, prot); err != nil {
		t.Fatal(err)
	}
	if got, err := rs.Create(ctx, 1, prot); err != nil || !got.Replayed {
		t.Errorf("replay with the same password = %+v, %v", got, err)
	}
	prot.Password = ptr("other sesame")
	if _, err := rs.Create(ctx, 1, prot); fieldOf(err) != report.IdempotencyKeyField {
		t.Errorf("the key with another password: err = %v", err)
	}
	// A replay of a deleted report is not found.
	if err := rs.Delete(ctx, 1, first.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := rs.Create(ctx, 1, in); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("replay of a deleted report: err = %v, want report.ErrNotFound", err)
	}
}

func TestIdempotencyKeySyntax(t *testing.T) {
	rs := reports.New(memory.NewReportStore(), &scripted{score: 70}, cheapPasswords)
	for _, key := range []string{strings.Repeat("k", 256), "tab\there", "nul\x00", "é", "line\n"} {
		if _, err := rs.Create(context.Background(), 1, reports.NewReport{URL: "https://example.com/", IdempotencyKey: key}); fieldOf(err) != report.IdempotencyKeyField {
			t.Errorf("key %q: err = %v, want 422 on %s", key, err, report.IdempotencyKeyField)
		}
	}
	for _, key := range []string{"k", strings.Repeat("k", 255), "9b1f0c3e-1d2a-4c55-8e7f-0a1b2c3d4e5f", "a key with spaces ~!@#"} {
		if _, err := rs.Create(context.Background(), 1, reports.NewReport{URL: "https://example.com/", IdempotencyKey: key}); err != nil {
			t.Errorf("key %q: err = %v", key, err)
		}
	}
}

// TestIdempotencyFailureReleases: a request that fails keeps no key, so a
// retry with it runs again.
func TestIdempotencyFailureReleases(t *testing.T) {
	ctx := context.Background()
	an := &scripted{score: 70, err: &webpage.FetchError{Reason: "no response"}}
	rs := reports.New(memory.NewReportStore(), an, cheapPasswords)
	in := reports.NewReport{URL: "https://example.com/", IdempotencyKey: "k"}
	var fe *webpage.FetchError
	if _, err := rs.Create(ctx, 1, in); !errors.As(err, &fe) {
		t.Fatalf("Create with the site down: err = %v", err)
	}
	an.err = nil
	if got, err := rs.Create(ctx, 1, in); err != nil || got.Replayed || an.calls.Load() != 2 {
		t.Errorf("retry after a failure = %+v, %v (%d analyses); want a new analysis", got, err, an.calls.Load())
	}
}

// TestIdempotencyInProgress: while the first request runs, a second with
// its key is refused (409) without analysing; once it finished, a third
// replays it. The first runs within its lock.
func TestIdempotencyInProgress(t *testing.T) {
	ctx := context.Background()
	an := &gated{scripted: scripted{score: 70}, entered: make(chan struct{}, 1), release: make(chan struct{})}
	rs := reports.New(memory.NewReportStore(), an, cheapPasswords)
	in := reports.NewReport{URL: "https://example.com/", IdempotencyKey: "slow"}
	done := make(chan reports.Created, 1)
	start := time.Now()
	go func() {
		r, err := rs.Create(ctx, 1, in)
		if err != nil {
			t.Errorf("first Create = %v", err)
		}
		done <- r
	}()
	<-an.entered
	var ip *reports.InProgressError
	if _, err := rs.Create(ctx, 1, in); !errors.As(err, &ip) || ip.RetryAfter() <= 0 || ip.RetryAfter() > 5*time.Second {
		t.Errorf("second Create while the first runs: err = %v, want *InProgressError with a short Retry-After", err)
	}
	close(an.release)
	first := <-done
	if got, err := rs.Create(ctx, 1, in); err != nil || !got.Replayed || got.ID != first.ID {
		t.Errorf("third Create = %+v, %v; want the first's report", got, err)
	}
	if n := an.calls.Load(); n != 1 {
		t.Errorf("%d analyses, want 1", n)
	}
	if d := an.deadline; d.IsZero() || d.After(start.Add(reports.IdempotencyLock+time.Second)) {
		t.Errorf("the first request ran with deadline %v, want one within %v", d, reports.IdempotencyLock)
	}
}

// TestIdempotencyExpires: a key is forgotten after 24 hours.
func TestIdempotencyExpires(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	an := &scripted{score: 70}
	rs := reports.New(memory.NewReportStore(), an, cheapPasswords, reports.WithClock(func() time.Time { return now }))
	in := reports.NewReport{URL: "https://example.com/", IdempotencyKey: "daily"}
	first, _ := rs.Create(ctx, 1, in)
	now = now.Add(report.IdempotencyKeyTTL - time.Second)
	if got, err := rs.Create(ctx, 1, in); err != nil || !got.Replayed {
		t.Errorf("a second before expiry = %+v, %v; want a replay", got, err)
	}
	now = now.Add(time.Second)
	if got, err := rs.Create(ctx, 1, in); err != nil || got.Replayed || got.ID == first.ID {
		t.Errorf("24 hours later = %+v, %v; want a new report", got, err)
	}
}
