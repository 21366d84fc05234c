package crawls_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/ports"
)

// TestRunYieldsToAnotherUser: while user 1 has a crawl running and user
// 2's crawl could start, user 1's second crawl gives its worker up (its
// job snoozes, the crawl stays queued); user 1's running one keeps going.
func TestRunYieldsToAnotherUser(t *testing.T) {
	ctx := context.Background()
	reports := memory.NewReportStore()
	store := memory.NewCrawlStore(reports)
	jobs := memory.NewJobs(reports, ports.JobSettings{})
	jobs.Crawls(store) // never started: Run is called by hand
	cs := crawls.New(store, jobs, nil, testPasswords(), crawls.Config{ActiveLimit: -1, DailyPages: -1})
	create := func(user int64, url string) crawl.Crawl {
		t.Helper()
		c, err := cs.Create(ctx, user, crawl.Params{URL: url, MaxPages: ptr(5)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	first := create(1, "https://one.example/")
	if _, ok, err := store.ClaimSite(ctx, first.ID, "elsewhere", time.Now(), time.Now().Add(time.Minute)); err != nil || !ok {
		t.Fatalf("ClaimSite = %v, %v", ok, err)
	}
	second := create(1, "https://two.example/")
	create(2, "https://other.example/")

	err := cs.Run(ctx, ports.CrawlJob{ID: 99, CrawlID: second.ID, UserID: 1, Attempt: 1})
	var snooze *ports.SnoozeError
	if !errors.As(err, &snooze) || snooze.After != crawl.YieldWait {
		t.Fatalf("Run of the user's second crawl = %v, want a snooze of %v", err, crawl.YieldWait)
	}
	if got, _ := cs.Get(ctx, 1, second.ID); got.Status != crawl.StatusQueued {
		t.Fatalf("the yielding crawl is %s, want still queued", got.Status)
	}
}
