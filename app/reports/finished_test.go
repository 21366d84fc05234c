package reports_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/webhook"
	"github.com/pinsight/pinsight/ports"
)

// TestFinishedReportsQueueDeliveries: every analysis the use cases store
// (a create, a re-analysis run in its request) queues one report.finished
// delivery to the user's webhook, with the write; an update that analyses
// nothing queues none.
func TestFinishedReportsQueueDeliveries(t *testing.T) {
	ctx := context.Background()
	store := memory.NewReportStore()
	memory.NewJobs(store, ports.JobSettings{}) // wires the store's deliveries; never started
	w, err := store.CreateWebhook(ctx, webhook.Webhook{UserID: 1, URL: "https://hooks.example/h", Secret: "0123456789abcdef",
		Events: []string{webhook.EventReportFinished}, CreatedAt: time.Now()}, 10)
	if err != nil {
		t.Fatal(err)
	}
	rs := reports.New(store, &scripted{score: 60}, cheapPasswords)
	events := func(what string, want int) []webhook.Event {
		t.Helper()
		ds, err := store.Deliveries(ctx, 1, w.ID, 100)
		if err != nil || len(ds) != want {
			t.Fatalf("%s: %d deliveries (%v), want %d", what, len(ds), err, want)
		}
		out := make([]webhook.Event, len(ds))
		for i, d := range ds {
			if err := json.Unmarshal(d.Body, &out[i]); err != nil {
				t.Fatal(err)
			}
		}
		return out
	}
	r, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://site.example/"})
	if err != nil {
		t.Fatal(err)
	}
	if ev := events("created", 1); ev[0].Report.ID != r.ID || ev[0].Report.Status != "generated" || ev[0].Report.Score != 60 {
		t.Errorf("event of the creation = %+v", ev[0])
	}
	if _, err := rs.Update(ctx, 1, r.ID, reports.ReportUpdate{Privacy: ptr(0)}); err != nil {
		t.Fatal(err)
	}
	events("privacy changed", 1)
	if _, err := rs.Update(ctx, 1, r.ID, reports.ReportUpdate{Reanalyse: true}); err != nil {
		t.Fatal(err)
	}
	if ev := events("re-analysed in the request", 2); ev[0].Report.ID != r.ID || !ev[0].Report.GeneratedAt.After(ev[1].Report.GeneratedAt) {
		t.Errorf("event of the re-analysis = %+v, want a later analysis than the first's %+v", ev[0], ev[1])
	}
}
