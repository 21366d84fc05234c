package porttest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webhook"
	"github.com/pinsight/pinsight/ports"
)

// TestWebhooks checks a WebhookStore and the WebhookQueue of a Jobs queue:
// webhooks per user (their cap held under concurrent creates), deliveries
// stored with their jobs by the report writes that finish reports, in
// their transaction, delivery jobs run (and retried) by the started queue,
// updates, lists, and deletion taking the deliveries along, and the
// crawl.finished deliveries stored by the crawl store's writes that end
// crawls. newSubject is TestJobs's, with Webhooks and WebhookQueue set and
// a Store (and Crawls) wired to that queue; users 1 and 2 must exist.
func TestWebhooks(t *testing.T, newSubject func(t *testing.T) JobsSubject) {
	t.Run("store", func(t *testing.T) { testWebhookStore(t, newSubject(t)) })
	t.Run("limit under concurrent creates", func(t *testing.T) { testWebhookLimit(t, newSubject(t)) })
	t.Run("deliveries run", func(t *testing.T) { testDeliveriesRun(t, newSubject(t)) })
	t.Run("queued by the write that finishes a report", func(t *testing.T) { testFinishQueuesDeliveries(t, newSubject(t)) })
	t.Run("queued by the write that ends a crawl", func(t *testing.T) { testCrawlFinishQueuesDeliveries(t, newSubject(t)) })
}

func newWebhook(t *testing.T, s JobsSubject, userID int64, url string) webhook.Webhook {
	t.Helper()
	return newWebhookFor(t, s, userID, url, webhook.EventReportFinished)
}

// newWebhookFor stores a webhook of the user subscribed to events.
func newWebhookFor(t *testing.T, s JobsSubject, userID int64, url string, events ...string) webhook.Webhook {
	t.Helper()
	at := time.Now().UTC().Truncate(time.Second)
	w, err := s.Webhooks.CreateWebhook(context.Background(), webhook.Webhook{UserID: userID, URL: url, Secret: "0123456789abcdef-secret",
		Events: events, CreatedAt: at}, 10)
	if err != nil || w.ID == 0 || w.URL != url || w.Secret != "0123456789abcdef-secret" || !w.CreatedAt.Equal(at) || !w.Wants(events[0]) {
		t.Fatalf("CreateWebhook = %+v, %v", w, err)
	}
	return w
}

func testWebhookStore(t *testing.T, s JobsSubject) {
	ctx := context.Background()
	w1 := newWebhook(t, s, 1, "https://a.example.com/hook")
	w2 := newWebhook(t, s, 1, "https://b.example.com/hook")
	w3 := newWebhook(t, s, 2, "https://c.example.com/hook")
	if ws, err := s.Webhooks.Webhooks(ctx, 1); err != nil || len(ws) != 2 || ws[0].ID != w1.ID || ws[1].ID != w2.ID {
		t.Errorf("Webhooks(1) = %+v, %v; want w1, w2", ws, err)
	}
	if got, err := s.Webhooks.Webhook(ctx, 2, w3.ID); err != nil || got.URL != w3.URL || got.Secret != w3.Secret {
		t.Errorf("Webhook(2, w3) = %+v, %v", got, err)
	}
	if _, err := s.Webhooks.Webhook(ctx, 1, w3.ID); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("Webhook of another user = %v, want ErrNotFound", err)
	}
	if err := s.Webhooks.DeleteWebhook(ctx, 1, w3.ID); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("DeleteWebhook of another user = %v, want ErrNotFound", err)
	}
	if _, err := s.Webhooks.Deliveries(ctx, 1, w3.ID, 10); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("Deliveries of another user's webhook = %v, want ErrNotFound", err)
	}
	if ds, err := s.Webhooks.Deliveries(ctx, 1, w1.ID, 10); err != nil || len(ds) != 0 {
		t.Errorf("Deliveries of a new webhook = %+v, %v; want none", ds, err)
	}
	if _, err := s.Webhooks.Delivery(ctx, 987654); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("Delivery(unknown) = %v, want ErrNotFound", err)
	}
	if _, err := s.Webhooks.UpdateDelivery(ctx, 987654, func(*webhook.Delivery) error { return nil }); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("UpdateDelivery(unknown) = %v, want ErrNotFound", err)
	}
	if err := s.Webhooks.DeleteWebhook(ctx, 1, w2.ID); err != nil {
		t.Fatalf("DeleteWebhook = %v", err)
	}
	if ws, err := s.Webhooks.Webhooks(ctx, 1); err != nil || len(ws) != 1 || ws[0].ID != w1.ID {
		t.Errorf("Webhooks(1) after delete = %+v, %v; want w1", ws, err)
	}
	if err := s.Webhooks.DeleteWebhook(ctx, 1, w2.ID); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("second DeleteWebhook = %v, want ErrNotFound", err)
	}
}

// testWebhookLimit: 40 concurrent creates for one user under a cap of 10
// store exactly 10 and refuse the rest with webhook.ErrLimit; the cap is
// per user, and a deletion makes room again.
func testWebhookLimit(t *testing.T, s JobsSubject) {
	ctx := context.Background()
	const n, limit = 40, 10
	create := func(userID int64) error {
		_, err := s.Webhooks.CreateWebhook(ctx, webhook.Webhook{UserID: userID, URL: "https://a.example.com/hook",
			Secret: "0123456789abcdef-secret", Events: []string{webhook.EventReportFinished}, CreatedAt: time.Now()}, limit)
		return err
	}
	newWebhook(t, s, 2, "https://c.example.com/hook") // another user's webhook counts for them only
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { errs[i] = create(1) })
	}
	wg.Wait()
	created := 0
	for i, err := range errs {
		switch {
		case err == nil:
			created++
		case !errors.Is(err, webhook.ErrLimit):
			t.Errorf("create %d = %v, want nil or ErrLimit", i, err)
		}
	}
	ws, err := s.Webhooks.Webhooks(ctx, 1)
	if created != limit || err != nil || len(ws) != limit {
		t.Fatalf("%d concurrent creates under a cap of %d: %d succeeded, %d stored (%v); want %d", n, limit, created, len(ws), err, limit)
	}
	if err := create(1); !errors.Is(err, webhook.ErrLimit) {
		t.Errorf("create at the cap = %v, want ErrLimit", err)
	}
	if err := s.Webhooks.DeleteWebhook(ctx, 1, ws[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := create(1); err != nil {
		t.Errorf("create after a deletion = %v, want room for one", err)
	}
}

func testDeliveriesRun(t *testing.T, s JobsSubject) {
	ctx := context.Background()
	w1 := newWebhook(t, s, 1, "https://a.example.com/hook")
	w2 := newWebhook(t, s, 1, "https://b.example.com/hook")
	var mu sync.Mutex
	runs := map[int64][]int{} // delivery id -> attempts seen
	ran := make(chan int64, 16)
	s.WebhookQueue.SetDeliveryWorker(func(ctx context.Context, job ports.DeliveryJob) error {
		d, err := s.Webhooks.UpdateDelivery(ctx, job.DeliveryID, func(d *webhook.Delivery) error {
			d.Attempts++
			d.ResponseStatus, d.Status = 200, webhook.DeliveryDelivered
			if d.WebhookID == w2.ID && d.Attempts == 1 {
				d.ResponseStatus, d.Status, d.LastError = 503, webhook.DeliveryPending, "HTTP 503"
			}
			return nil
		})
		if err != nil {
			return err
		}
		mu.Lock()
		runs[job.DeliveryID] = append(runs[job.DeliveryID], job.Attempt)
		mu.Unlock()
		ran <- job.DeliveryID
		if d.Status == webhook.DeliveryPending {
			return &ports.RetryError{Err: errors.New(d.LastError)}
		}
		return nil
	})
	before := time.Now().UTC().Truncate(time.Second)
	r, err := s.Store.CreateReport(ctx, newReport(1, "https://finished.example.com/", 70, 1, report.Private))
	if err != nil {
		t.Fatal(err)
	}
	ds := append(deliveriesTo(t, s, w1), deliveriesTo(t, s, w2)...)
	if len(ds) != 2 || ds[0].ID == 0 || ds[1].ID <= ds[0].ID || string(ds[0].Body) != string(ds[1].Body) {
		t.Fatalf("deliveries of a report created finished = %+v, want one to each webhook, in order", ds)
	}
	if got, err := s.Webhooks.Delivery(ctx, ds[1].ID); err != nil || got.WebhookID != w2.ID || got.UserID != 1 || got.ReportID != r.ID ||
		got.Status != webhook.DeliveryPending || string(got.Body) != string(ds[1].Body) || got.CreatedAt.Before(before) || !got.UpdatedAt.Equal(got.CreatedAt) {
		t.Errorf("Delivery = %+v, %v", got, err)
	}
	// Queued deliveries are counted apart from analyses.
	if st, err := s.Jobs.Stats(ctx); err != nil || st.Deliveries.Queued != 2 || st.Queued != 0 {
		t.Errorf("Stats before the queue starts = %+v, %v; want 2 deliveries queued, no analysis", st, err)
	}
	startJobs(t, s, newJobRecorder(nil))
	waitFor(t, "both delivered", func() bool {
		a, err1 := s.Webhooks.Delivery(ctx, ds[0].ID)
		b, err2 := s.Webhooks.Delivery(ctx, ds[1].ID)
		return err1 == nil && err2 == nil && a.Status == webhook.DeliveryDelivered && b.Status == webhook.DeliveryDelivered
	})
	mu.Lock()
	if len(runs[ds[0].ID]) != 1 || len(runs[ds[1].ID]) != 2 || runs[ds[1].ID][1] != 2 {
		t.Errorf("runs = %v; want one of the first delivery, two (attempts 1, 2) of the retried one", runs)
	}
	mu.Unlock()
	if list, err := s.Webhooks.Deliveries(ctx, 1, w2.ID, 10); err != nil || len(list) != 1 || list[0].ID != ds[1].ID ||
		list[0].Attempts != 2 || list[0].ResponseStatus != 200 || list[0].LastError != "HTTP 503" {
		t.Errorf("Deliveries(w2) = %+v, %v; want the retried delivery with 2 attempts", list, err)
	}
	// Analyses' counts leave deliveries out; delivered ones are not queued.
	if st, err := s.Jobs.Stats(ctx); err != nil || st.JobCounts != (ports.JobCounts{}) || st.Deliveries.Queued != 0 {
		t.Errorf("Stats = %+v, %v; want no analyses and no delivery queued", st, err)
	}
	// A webhook's deliveries go with it.
	if err := s.Webhooks.DeleteWebhook(ctx, 1, w1.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Webhooks.Delivery(ctx, ds[0].ID); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("Delivery of a deleted webhook = %v, want ErrNotFound", err)
	}
}
