package main

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/riverjobs"
	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/domain/report"
)

// TestWorkerRunsJobs: `pinsight worker`'s graph serves no HTTP and runs
// the analyses queued in the database by another process.
func TestWorkerRunsJobs(t *testing.T) {
	fixture := newFixtureSite(t, 0)
	url := "sqlite:" + filepath.Join(t.TempDir(), "p.db")
	ctx := context.Background()

	// Another process's enqueue: a pending report and its job, one write.
	db, err := sqlite.Open(ctx, sqlite.Config{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := sqlite.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	u, err := sqlite.NewAccountStore(db).CreateUser(ctx, account.User{Email: "w@example.com", CreatedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	queue, err := sqlite.NewJobs(db, riverjobs.Config{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	r, _, err := queue.CreateWithJob(ctx, report.Report{UserID: u.ID, URL: fixture.URL + "/fast", Project: "127.0.0.1",
		Status: report.StatusPending, CreatedAt: now, UpdatedAt: now, GeneratedAt: now}, nil, time.Time{})
	if err != nil {
		t.Fatal(err)
	}

	opts, err := workerOptions(jobsServeConfig(url, 5*time.Second), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	a := fxtest.New(t, opts)
	a.RequireStart()
	defer a.RequireStop()
	store := sqlite.NewReportStore(db)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		got, err := store.Report(ctx, u.ID, r.ID)
		if err == nil && got.Status == report.StatusGenerated {
			if got.Attempts != 1 || got.Rating == "" {
				t.Errorf("report = %+v, want generated after 1 attempt", got)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the worker did not run the job: %+v, %v", got, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
