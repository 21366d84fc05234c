package sqlitefx_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/adapters/sqlite/sqlitefx"
	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webhook"
	"github.com/pinsight/pinsight/ports"
)

// TestReportStoreQueuesDeliveriesWithTheQueue: the graph's report store is
// its webhook store, and it queues a finished report's deliveries when the
// graph has the job queue (its settings supplied), and none without it.
func TestReportStoreQueuesDeliveriesWithTheQueue(t *testing.T) {
	for _, withQueue := range []bool{true, false} {
		path := filepath.Join(t.TempDir(), "p.db")
		opts := []fx.Option{fx.NopLogger, fx.Supply(sqlite.Config{URL: "sqlite:" + path}), sqlitefx.Module}
		if withQueue {
			opts = append(opts, fx.Supply(ports.JobSettings{}))
		}
		var accounts ports.AccountStore
		var reports ports.ReportStore
		var hooks ports.WebhookStore
		app := fx.New(append(opts, fx.Populate(&accounts, &reports, &hooks))...)
		if err := app.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		u, err := accounts.CreateUser(ctx, account.User{Email: "u@example.com", CreatedAt: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		w, err := hooks.CreateWebhook(ctx, webhook.Webhook{UserID: u.ID, URL: "https://hooks.example/h", Secret: "0123456789abcdef",
			Events: []string{webhook.EventReportFinished}, CreatedAt: time.Now()}, 10)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		if _, err := reports.CreateReport(ctx, report.Report{UserID: u.ID, URL: "https://site.example/", Project: "site.example",
			Status: report.StatusGenerated, GeneratedAt: now, CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
		ds, err := hooks.Deliveries(ctx, u.ID, w.ID, 10)
		if want := map[bool]int{true: 1, false: 0}[withQueue]; err != nil || len(ds) != want {
			t.Errorf("with the queue %v: deliveries %+v, %v; want %d", withQueue, ds, err, want)
		}
		if err := app.Stop(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}
