package porttest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// dueIDs are the IDs DueCrawls answers at now.
func dueIDs(t *testing.T, s ports.CrawlStore, now time.Time) []int64 {
	t.Helper()
	due, err := s.DueCrawls(context.Background(), now, 10)
	if err != nil {
		t.Fatalf("DueCrawls: %v", err)
	}
	ids := []int64{}
	for _, c := range due {
		ids = append(ids, c.ID)
	}
	return ids
}

// claimAndFinish claims crawl id's site and finishes it.
func claimAndFinish(t *testing.T, s ports.CrawlStore, id int64) {
	t.Helper()
	if _, ok, err := s.ClaimSite(context.Background(), id, "run", crawlEpoch, crawlEpoch.Add(time.Hour)); err != nil || !ok {
		t.Fatalf("ClaimSite(%d) = %v, %v", id, ok, err)
	}
	finishCrawl(t, s, id, 80)
}

func testCrawlSchedule(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	day := 24 * time.Hour
	in := newCrawl(u[1], "https://example.com/", 0)
	in.Settings.Headers, in.Settings.Schedule, in.PasswordHash = nil, report.ScheduleDaily, "argon2id$hash"
	in.QuotaUntil = crawlEpoch.Add(5 * time.Hour)
	src := create(t, s, in)
	if got, _ := s.Crawl(ctx, u[1], src.ID); !got.QuotaUntil.Equal(in.QuotaUntil.Truncate(time.Microsecond)) || !src.QuotaUntil.Equal(got.QuotaUntil) {
		t.Fatalf("QuotaUntil stored %v, read %v; want %v", src.QuotaUntil, got.QuotaUntil, in.QuotaUntil)
	}
	if want := crawlEpoch.Add(day).Truncate(time.Microsecond); !src.NextRunAt.Equal(want) || src.ScheduledFrom != 0 {
		t.Fatalf("created: NextRunAt %v, ScheduledFrom %d; want %v, 0", src.NextRunAt, src.ScheduledFrom, want)
	}
	plain := create(t, s, newCrawl(u[1], "https://plain.example/", 1))
	if !plain.NextRunAt.IsZero() {
		t.Fatalf("a crawl without a schedule has NextRunAt %v", plain.NextRunAt)
	}
	if got := dueIDs(t, s, crawlEpoch.Add(2*day)); len(got) != 0 {
		t.Fatalf("due while queued: %v", got)
	}
	claimAndFinish(t, s, src.ID)
	claimAndFinish(t, s, plain.ID)
	if got := dueIDs(t, s, crawlEpoch.Add(day-time.Minute)); len(got) != 0 {
		t.Fatalf("due before its next run: %v", got)
	}
	if got := dueIDs(t, s, crawlEpoch.Add(day)); len(got) != 1 || got[0] != src.ID {
		t.Fatalf("due at its next run: %v, want [%d]", got, src.ID)
	}
	src, _ = s.Crawl(ctx, u[1], src.ID)

	// Another user cannot start its run; the owner can, once.
	at := crawlEpoch.Add(day + time.Minute)
	stolen := src.Rerun(at)
	stolen.UserID = u[2]
	if _, err := s.CreateCrawl(ctx, stolen, 0, nil); !errors.Is(err, crawl.ErrNotDue) {
		t.Fatalf("another user's run: %v, want crawl.ErrNotDue", err)
	}
	run, err := s.CreateCrawl(ctx, src.Rerun(at), 0, nil)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if run.ScheduledFrom != src.ID || run.Settings.Schedule != report.ScheduleOff || !run.NextRunAt.IsZero() ||
		run.PasswordHash != "argon2id$hash" || run.Settings.URL != src.Settings.URL || run.Status != crawl.StatusQueued {
		t.Fatalf("run = %+v", run)
	}
	if _, err := s.CreateCrawl(ctx, src.Rerun(at), 0, nil); !errors.Is(err, crawl.ErrNotDue) {
		t.Fatalf("second run at once: %v, want crawl.ErrNotDue", err)
	}
	got, _ := s.Crawl(ctx, u[1], src.ID)
	if want := at.Add(day); !got.NextRunAt.Equal(want) {
		t.Fatalf("next run moved to %v, want %v", got.NextRunAt, want)
	}
	if got := dueIDs(t, s, at.Add(2*day)); len(got) != 0 {
		t.Fatalf("due while its run is active: %v", got)
	}
	claimAndFinish(t, s, run.ID)
	if got := dueIDs(t, s, at.Add(2*day)); len(got) != 1 || got[0] != src.ID {
		t.Fatalf("due once its run ended: %v, want [%d]", got, src.ID)
	}

	// Deferred, then turned off.
	if err := s.DeferRun(ctx, src.ID, at.Add(3*day)); err != nil {
		t.Fatal(err)
	}
	if got := dueIDs(t, s, at.Add(2*day)); len(got) != 0 {
		t.Fatalf("due while deferred: %v", got)
	}
	if _, err := s.SetSchedule(ctx, u[2], src.ID, report.ScheduleOff, time.Time{}); !errors.Is(err, crawl.ErrNotFound) {
		t.Fatalf("another user's SetSchedule: %v, want crawl.ErrNotFound", err)
	}
	weekly, err := s.SetSchedule(ctx, u[1], src.ID, report.ScheduleWeekly, at.Add(7*day))
	if err != nil || weekly.Settings.Schedule != report.ScheduleWeekly || !weekly.NextRunAt.Equal(at.Add(7*day)) {
		t.Fatalf("SetSchedule weekly = %+v, %v", weekly, err)
	}
	off, err := s.SetSchedule(ctx, u[1], src.ID, report.ScheduleOff, at)
	if err != nil || off.Settings.Schedule != report.ScheduleOff || !off.NextRunAt.IsZero() {
		t.Fatalf("SetSchedule off = %+v, %v", off, err)
	}
	if err := s.DeferRun(ctx, src.ID, at.Add(day)); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Crawl(ctx, u[1], src.ID); !got.NextRunAt.IsZero() || got.Settings.Schedule != report.ScheduleOff {
		t.Fatalf("DeferRun gave a crawl without a schedule a next run: %+v", got)
	}
	if got := dueIDs(t, s, at.Add(30*day)); len(got) != 0 {
		t.Fatalf("due with its schedule off: %v", got)
	}
	if err := s.DeferRun(ctx, 1<<40, at); !errors.Is(err, crawl.ErrNotFound) {
		t.Fatalf("DeferRun of a missing crawl: %v", err)
	}
}
