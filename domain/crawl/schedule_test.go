package crawl_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/report"
)

func TestNewSettingsSchedule(t *testing.T) {
	s, err := crawl.NewSettings(crawl.Params{URL: "https://example.com/", Schedule: "weekly"})
	if err != nil || s.Schedule != report.ScheduleWeekly {
		t.Fatalf("NewSettings = %+v, %v; want weekly", s, err)
	}
}

func TestDueAndRerun(t *testing.T) {
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	s, err := crawl.NewSettings(crawl.Params{URL: "https://example.com/", Schedule: "daily", Include: []string{"/docs"}})
	if err != nil {
		t.Fatal(err)
	}
	c := crawl.Crawl{ID: 7, UserID: 3, Site: "example.com", Settings: s, PasswordHash: "h", Status: crawl.StatusFinished,
		NextRunAt: crawl.NextRun(s.Schedule, now.Add(-24*time.Hour))}
	if !c.Due(now) || c.Due(now.Add(-time.Second)) {
		t.Fatalf("Due around %v wrong for NextRunAt %v", now, c.NextRunAt)
	}
	for _, st := range []crawl.Status{crawl.StatusQueued, crawl.StatusRunning} {
		if q := (crawl.Crawl{Settings: s, Status: st, NextRunAt: now}); q.Due(now) {
			t.Errorf("a %s crawl is due", st)
		}
	}
	if off := (crawl.Crawl{Status: crawl.StatusFinished, NextRunAt: now}); off.Due(now) {
		t.Error("a crawl without a schedule is due")
	}
	run := c.Rerun(now)
	want := s
	want.Schedule, want.Headers = report.ScheduleOff, nil
	if run.ID != 0 || run.UserID != 3 || run.Site != "example.com" || run.ScheduledFrom != 7 || run.PasswordHash != "h" ||
		!run.CreatedAt.Equal(now) || !reflect.DeepEqual(run.Settings, want) {
		t.Fatalf("Rerun = %+v", run)
	}
	if got := crawl.NextRun(report.ScheduleWeekly, now); !got.Equal(now.Add(7 * 24 * time.Hour)) {
		t.Errorf("NextRun weekly = %v", got)
	}
	if got := crawl.NextRun(report.ScheduleOff, now); !got.IsZero() {
		t.Errorf("NextRun off = %v", got)
	}
}

func ExampleCrawl_Rerun() {
	s, _ := crawl.NewSettings(crawl.Params{URL: "https://example.com/", Schedule: "weekly"})
	created := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	c := crawl.Crawl{ID: 7, UserID: 3, Site: "example.com", Settings: s, Status: crawl.StatusFinished,
		NextRunAt: crawl.NextRun(s.Schedule, created)}
	now := created.Add(7 * 24 * time.Hour)
	fmt.Println("due:", c.Due(now))
	run := c.Rerun(now)
	fmt.Println("run of", run.ScheduledFrom, run.Settings.URL, "schedule:", run.Settings.Schedule == report.ScheduleOff)
	fmt.Println("next:", crawl.NextRun(c.Settings.Schedule, now).Format(time.DateOnly))
	// Output:
	// due: true
	// run of 7 https://example.com/ schedule: true
	// next: 2026-12-15
}
