package crawls_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// settable is a clock tests move by hand.
type settable struct {
	mu sync.Mutex
	t  time.Time
}

func (c *settable) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *settable) set(t time.Time) { c.mu.Lock(); defer c.mu.Unlock(); c.t = t }

// scheduleEnv is the crawl use cases over memory stores whose queue is
// never started (jobs wait), with a daily quota of 100 pages and one
// active crawl per user, kept by a limiter on clock, the use cases' too.
func scheduleEnv(t *testing.T, clock *settable) (*crawls.Crawls, *memory.CrawlStore) {
	t.Helper()
	reports := memory.NewReportStore()
	store := memory.NewCrawlStore(reports)
	jobs := memory.NewJobs(reports, ports.JobSettings{})
	jobs.Crawls(store)
	cs := crawls.New(store, jobs, nil, testPasswords(), crawls.Config{DailyPages: 100, ActiveLimit: 1,
		Limiter: memory.NewRateLimiterWithClock(clock.now), Clock: clock.now})
	return cs, store
}

// testPasswords is a cheap password hasher for tests.
func testPasswords() *accounts.Passwords {
	return accounts.NewPasswords(accounts.PasswordParams{Time: 1, MemoryKiB: 8 * 1024, Threads: 1}, accounts.PasswordLimits{})
}

// end claims crawl id's site and finishes it.
func end(t *testing.T, store *memory.CrawlStore, id int64) {
	t.Helper()
	ctx, now := context.Background(), time.Now()
	if _, ok, err := store.ClaimSite(ctx, id, "test", now, now.Add(time.Minute)); err != nil || !ok {
		t.Fatalf("ClaimSite = %v, %v", ok, err)
	}
	if _, err := store.FinishCrawl(ctx, id, ports.CrawlFinish{Status: crawl.StatusFinished, At: now}); err != nil {
		t.Fatal(err)
	}
}

// count is how many crawls user 1 has.
func count(t *testing.T, cs *crawls.Crawls) int {
	t.Helper()
	q, _ := crawl.NewListQuery(crawl.ListParams{})
	_, n, err := cs.List(context.Background(), 1, q)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestScheduledCrawlRuns(t *testing.T) {
	ctx := context.Background()
	clock := &settable{t: time.Now()}
	cs, store := scheduleEnv(t, clock)
	if _, err := cs.Create(ctx, 1, crawl.Params{URL: "https://example.com/", Schedule: "daily", Headers: map[string]string{"Cookie": "a=b"}}, nil); err == nil {
		t.Fatal("a schedule with headers was accepted")
	}
	src, err := cs.Create(ctx, 1, crawl.Params{URL: "https://example.com/", MaxPages: ptr(60), Include: []string{"/docs"}, Schedule: "daily"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	due := src.NextRunAt
	if want := src.CreatedAt.Add(24 * time.Hour); !due.Equal(want) {
		t.Fatalf("NextRunAt = %v, want %v", due, want)
	}
	if err := cs.StartDue(ctx, due); err != nil || count(t, cs) != 1 {
		t.Fatalf("StartDue while the crawl is queued: %v, %d crawls", err, count(t, cs))
	}
	end(t, store, src.ID)
	if err := cs.StartDue(ctx, due.Add(-time.Minute)); err != nil || count(t, cs) != 1 {
		t.Fatalf("StartDue before its time: %v, %d crawls", err, count(t, cs))
	}

	// 40 pages left today: the run of 60 waits for the quota.
	if err := cs.StartDue(ctx, due); err != nil || count(t, cs) != 1 {
		t.Fatalf("StartDue over the quota: %v, %d crawls", err, count(t, cs))
	}
	got, _ := cs.Get(ctx, 1, src.ID)
	if wait := got.NextRunAt.Sub(due); wait <= 0 || wait > 24*time.Hour {
		t.Fatalf("refused by the quota, the run waits %v", wait)
	}

	// A day later the quota is whole, but another crawl fills the cap:
	// the run waits 15 minutes, charging nothing. Cancelled while queued,
	// that crawl's 10 pages come back.
	clock.set(clock.now().Add(24 * time.Hour))
	blocker, err := cs.Create(ctx, 1, crawl.Params{URL: "https://other.example/", MaxPages: ptr(10)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	at := got.NextRunAt
	if err := cs.StartDue(ctx, at); err != nil || count(t, cs) != 2 {
		t.Fatalf("StartDue at the cap: %v, %d crawls", err, count(t, cs))
	}
	if got, _ = cs.Get(ctx, 1, src.ID); !got.NextRunAt.Equal(at.Add(15 * time.Minute)) {
		t.Fatalf("refused by the cap, next run %v, want %v", got.NextRunAt, at.Add(15*time.Minute))
	}
	if _, err := cs.Cancel(ctx, 1, blocker.ID); err != nil {
		t.Fatal(err)
	}

	// Now it runs: a new crawl with the same settings, charged 60 of the
	// 100 pages.
	at = got.NextRunAt
	if err := cs.StartDue(ctx, at); err != nil || count(t, cs) != 3 {
		t.Fatalf("StartDue: %v, %d crawls", err, count(t, cs))
	}
	list, _, _ := store.Crawls(ctx, 1, crawl.ListQuery{SortBy: crawl.SortByCreatedAt, Desc: true})
	run := list[0]
	want := src.Settings
	want.Schedule = report.ScheduleOff
	if run.ScheduledFrom != src.ID || run.Status != crawl.StatusQueued || run.Settings.URL != want.URL ||
		run.Settings.MaxPages != 60 || len(run.Settings.Include) != 1 || run.Settings.Schedule != report.ScheduleOff || !run.NextRunAt.IsZero() {
		t.Fatalf("run = %+v", run)
	}
	if got, _ = cs.Get(ctx, 1, src.ID); !got.NextRunAt.Equal(at.Add(24 * time.Hour)) {
		t.Fatalf("after its run, next run %v, want %v", got.NextRunAt, at.Add(24*time.Hour))
	}
	// 40 left: a crawl of 40 passes the quota, is refused by the cap and
	// given back; one of 41 is over the quota.
	if _, err := cs.Create(ctx, 1, crawl.Params{URL: "https://third.example/", MaxPages: ptr(40)}, nil); !errors.Is(err, crawl.ErrActiveLimit) {
		t.Fatalf("Create of 40 pages at the cap: %v, want crawl.ErrActiveLimit", err)
	}
	var quota *crawls.QuotaError
	if _, err := cs.Create(ctx, 1, crawl.Params{URL: "https://third.example/", MaxPages: ptr(41)}, nil); !errors.As(err, &quota) || quota.Fit != 40 {
		t.Fatalf("Create of 41 pages after the run: %v, want a QuotaError with 40 left", err)
	}
	if err := cs.StartDue(ctx, at.Add(48*time.Hour)); err != nil || count(t, cs) != 3 {
		t.Fatalf("StartDue while its run is queued: %v, %d crawls", err, count(t, cs))
	}

	// The schedule is changed, then turned off; it cannot be turned on.
	if _, err := cs.SetSchedule(ctx, 2, src.ID, "off"); !errors.Is(err, crawl.ErrNotFound) {
		t.Fatalf("another user's SetSchedule: %v", err)
	}
	var invalid *report.ValidationError
	if _, err := cs.SetSchedule(ctx, 1, src.ID, "hourly"); !errors.As(err, &invalid) {
		t.Fatalf("SetSchedule hourly: %v", err)
	}
	if _, err := cs.SetSchedule(ctx, 1, run.ID, "daily"); !errors.Is(err, crawl.ErrScheduleNotSet) {
		t.Fatalf("SetSchedule on a crawl without one: %v", err)
	}
	weekly, err := cs.SetSchedule(ctx, 1, src.ID, "weekly")
	if err != nil || weekly.Settings.Schedule != report.ScheduleWeekly || time.Until(weekly.NextRunAt) < 6*24*time.Hour {
		t.Fatalf("SetSchedule weekly = %+v, %v", weekly, err)
	}
	off, err := cs.SetSchedule(ctx, 1, src.ID, "off")
	if err != nil || off.Settings.Schedule != report.ScheduleOff || !off.NextRunAt.IsZero() {
		t.Fatalf("SetSchedule off = %+v, %v", off, err)
	}
	end(t, store, run.ID)
	if err := cs.StartDue(ctx, at.Add(30*24*time.Hour)); err != nil || count(t, cs) != 3 {
		t.Fatalf("StartDue with the schedule off: %v, %d crawls", err, count(t, cs))
	}
}
