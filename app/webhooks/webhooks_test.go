package webhooks_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/webhooks"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webhook"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// fakePoster answers the statuses or errors queued for it and records
// what it was sent.
type fakePoster struct {
	mu      sync.Mutex
	answers []func() (int, error)
	sent    []webhook.Message
	checked error
}

func (p *fakePoster) Check(context.Context, string) error { return p.checked }

func (p *fakePoster) Post(_ context.Context, _ string, m webhook.Message) (int, error) {
	p.mu.Lock()
	p.sent = append(p.sent, m)
	if len(p.answers) == 0 {
		p.mu.Unlock()
		return 200, nil
	}
	a := p.answers[0]
	p.answers = p.answers[1:]
	p.mu.Unlock()
	return a() // unlocked: an answer may block, as a receiver that hangs
}

func status(n int) func() (int, error) { return func() (int, error) { return n, nil } }

// setup returns the use cases over a memory store with a queue that is
// never started: the store queues the deliveries of the reports it
// finishes, and the tests run them (Deliver) themselves.
func setup(t *testing.T, p *fakePoster) (*webhooks.Webhooks, *memory.ReportStore) {
	t.Helper()
	store := memory.NewReportStore()
	return webhooks.New(store, memory.NewJobs(store, ports.JobSettings{}), p, nil), store
}

// finish stores r finished, as the report use cases do, and returns the
// deliveries the store queued with it, in the order of its user's webhooks.
func finish(t *testing.T, store *memory.ReportStore, r report.Report) []webhook.Delivery {
	t.Helper()
	ctx := context.Background()
	out, err := store.CreateReport(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	hooks, err := store.Webhooks(ctx, r.UserID)
	if err != nil {
		t.Fatal(err)
	}
	var ds []webhook.Delivery
	for _, w := range hooks {
		list, err := store.Deliveries(ctx, r.UserID, w.ID, webhooks.MaxDeliveries)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range list {
			if d.ReportID == out.ID {
				ds = append(ds, d)
			}
		}
	}
	return ds
}

func TestCreateValidates(t *testing.T) {
	p := &fakePoster{}
	h, _ := setup(t, p)
	ctx := context.Background()
	for _, c := range []struct {
		in    webhooks.NewWebhook
		field string
	}{
		{webhooks.NewWebhook{URL: "https://example.com/h", Secret: "too short"}, "secret"},
		{webhooks.NewWebhook{URL: "mailto:x@example.com", Secret: "0123456789abcdef"}, "url"},
		{webhooks.NewWebhook{URL: "https://example.com/h", Secret: "0123456789abcdef", Events: []string{}}, "events"},
		{webhooks.NewWebhook{URL: "https://example.com/h", Secret: "0123456789abcdef", Events: []string{"x"}}, "events"},
	} {
		_, err := h.Create(ctx, 1, c.in)
		var ve *report.ValidationError
		if !errors.As(err, &ve) || len(ve.Fields[c.field]) == 0 {
			t.Errorf("Create(%+v) = %v, want invalid %s", c.in, err, c.field)
		}
	}
	w, err := h.Create(ctx, 1, webhooks.NewWebhook{URL: "https://example.com/h", Secret: "0123456789abcdef", Events: []string{webhook.EventCrawlFinished}})
	if err != nil || !w.Wants(webhook.EventCrawlFinished) || w.Wants(webhook.EventReportFinished) {
		t.Errorf("Create for crawl.finished only = %+v, %v", w, err)
	}
	if w, err = h.Create(ctx, 1, webhooks.NewWebhook{URL: "https://example.com/h", Secret: "0123456789abcdef"}); err != nil ||
		!w.Wants(webhook.EventCrawlFinished) || !w.Wants(webhook.EventReportFinished) {
		t.Errorf("Create without events = %+v, %v; want every event", w, err)
	}
	if err := h.Delete(ctx, 1, w.ID); err != nil {
		t.Fatal(err)
	}
	if ws, _ := h.List(ctx, 1); len(ws) == 1 {
		if err := h.Delete(ctx, 1, ws[0].ID); err != nil {
			t.Fatal(err)
		}
	}
	p.checked = &webpage.FetchError{Reason: "the host name typo.example does not resolve", Refused: true}
	_, err = h.Create(ctx, 1, webhooks.NewWebhook{URL: "https://typo.example/h", Secret: "0123456789abcdef"})
	if ve := (*report.ValidationError)(nil); !errors.As(err, &ve) || len(ve.Fields["url"]) != 1 ||
		ve.Fields["url"][0] != "is refused: the host name typo.example does not resolve" {
		t.Errorf("Create of a URL the poster refuses = %v, want url: is refused: <its reason>", err)
	}
	p.checked = nil
	for i := range webhooks.MaxPerUser {
		if _, err := h.Create(ctx, 1, webhooks.NewWebhook{URL: "https://example.com/h", Secret: "0123456789abcdef"}); err != nil {
			t.Fatalf("webhook %d: %v", i, err)
		}
	}
	if _, err := h.Create(ctx, 1, webhooks.NewWebhook{URL: "https://example.com/h", Secret: "0123456789abcdef"}); err == nil {
		t.Error("more than MaxPerUser webhooks")
	}
}

// TestCreateCapConcurrent: 40 creates at once for one user store exactly
// MaxPerUser webhooks; the others are refused on url with the cap's
// message, as one create over the cap is.
func TestCreateCapConcurrent(t *testing.T) {
	h, store := setup(t, &fakePoster{})
	ctx := context.Background()
	const n = 40
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			_, errs[i] = h.Create(ctx, 1, webhooks.NewWebhook{URL: "https://example.com/h", Secret: "0123456789abcdef"})
		})
	}
	wg.Wait()
	created := 0
	for _, err := range errs {
		var ve *report.ValidationError
		switch {
		case err == nil:
			created++
		case !errors.As(err, &ve) || len(ve.Fields) != 1 || len(ve.Fields["url"]) != 1 || ve.Fields["url"][0] != "at most 10 webhooks per user":
			t.Errorf("create over the cap = %v, want url: at most 10 webhooks per user", err)
		}
	}
	if ws, _ := store.Webhooks(ctx, 1); created != webhooks.MaxPerUser || len(ws) != webhooks.MaxPerUser {
		t.Errorf("%d concurrent creates: %d succeeded, %d stored; want %d", n, created, len(ws), webhooks.MaxPerUser)
	}
}

// deliverAll runs the delivery's job until it is over, as a queue would,
// and returns the attempts run.
func deliverAll(t *testing.T, h *webhooks.Webhooks, id int64) (int, error) {
	t.Helper()
	for attempt := 1; attempt <= 10; attempt++ {
		err := h.Deliver(context.Background(), ports.DeliveryJob{ID: 1, DeliveryID: id, Attempt: attempt})
		var retry *ports.RetryError
		if !errors.As(err, &retry) {
			return attempt, err
		}
	}
	t.Fatal("still retrying after 10 runs")
	return 0, nil
}

func TestDeliverOutcomes(t *testing.T) {
	ctx := context.Background()
	finished := report.Report{ID: 7, UserID: 1, URL: "https://site.example/", Status: report.StatusFailed, Failure: "no answer", Attempts: 3}
	for _, c := range []struct {
		name     string
		answers  []func() (int, error)
		runs     int
		status   webhook.DeliveryStatus
		response int
	}{
		{"2xx", nil, 1, webhook.DeliveryDelivered, 200},
		{"5xx then 2xx", []func() (int, error){status(500), status(503)}, 3, webhook.DeliveryDelivered, 200},
		{"network error then 2xx", []func() (int, error){func() (int, error) { return 0, &webpage.FetchError{Reason: "reset", Transient: true} }}, 2, webhook.DeliveryDelivered, 200},
		{"5xx always", []func() (int, error){status(500), status(500), status(500), status(500), status(500), status(500)}, 5, webhook.DeliveryFailed, 500},
		{"4xx", []func() (int, error){status(410)}, 1, webhook.DeliveryFailed, 410},
		{"3xx", []func() (int, error){status(302)}, 1, webhook.DeliveryFailed, 302},
		{"refused", []func() (int, error){func() (int, error) { return 0, &webpage.FetchError{Reason: "private address", Refused: true} }}, 1, webhook.DeliveryFailed, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &fakePoster{answers: c.answers}
			h, store := setup(t, p)
			w, err := h.Create(ctx, 1, webhooks.NewWebhook{URL: "https://hooks.example/h", Secret: "0123456789abcdef"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := h.Create(ctx, 2, webhooks.NewWebhook{URL: "https://other.example/h", Secret: "0123456789abcdef"}); err != nil {
				t.Fatal(err)
			}
			ds := finish(t, store, finished)
			if len(ds) != 1 || ds[0].WebhookID != w.ID {
				t.Fatalf("deliveries = %+v, want one to the user's webhook", ds)
			}
			if other, _ := store.Deliveries(ctx, 2, w.ID+1, 10); len(other) != 0 {
				t.Fatalf("another user's webhook got %+v", other)
			}
			runs, _ := deliverAll(t, h, ds[0].ID)
			d, err := store.Delivery(ctx, ds[0].ID)
			if err != nil || runs != c.runs || d.Attempts != c.runs || d.Status != c.status || d.ResponseStatus != c.response {
				t.Errorf("after %d runs: %+v, %v; want %d attempts, %s, response %d", runs, d, err, c.runs, c.status, c.response)
			}
			if (d.Status == webhook.DeliveryFailed) == (d.LastError == "") {
				t.Errorf("last error %q with status %s", d.LastError, d.Status)
			}
			for _, m := range p.sent {
				if !webhook.VerifySignature("0123456789abcdef", m.Signature, m.Body, time.Now(), 5*time.Minute) {
					t.Errorf("attempt signed %q does not verify", m.Signature)
				}
				if m.Event != webhook.EventReportFinished || m.DeliveryID != d.ID || string(m.Body) != string(d.Body) {
					t.Errorf("attempt sent event %q, delivery %d, body %s; want %q, %d, the delivery's", m.Event, m.DeliveryID, m.Body, webhook.EventReportFinished, d.ID)
				}
			}
		})
	}
	// A deleted webhook's delivery is dropped.
	h, store := setup(t, &fakePoster{})
	w, _ := h.Create(ctx, 1, webhooks.NewWebhook{URL: "https://hooks.example/h", Secret: "0123456789abcdef"})
	ds := finish(t, store, finished)
	if err := store.DeleteWebhook(ctx, 1, w.ID); err != nil {
		t.Fatal(err)
	}
	if err := h.Deliver(ctx, ports.DeliveryJob{DeliveryID: ds[0].ID, Attempt: 1}); err != nil {
		t.Errorf("Deliver of a deleted webhook = %v, want nil", err)
	}
}

// TestDeliverBoundsEachUser: while MaxUserSending deliveries of one user
// hang at their receivers, that user's next delivery snoozes without an
// attempt, and another user's is sent at once.
func TestDeliverBoundsEachUser(t *testing.T) {
	ctx := context.Background()
	hang, sending := make(chan struct{}), make(chan struct{}, 8)
	blocked := func() (int, error) { sending <- struct{}{}; <-hang; return 200, nil }
	p := &fakePoster{answers: []func() (int, error){blocked, blocked}}
	h, store := setup(t, p)
	for user := int64(1); user <= 2; user++ {
		if _, err := h.Create(ctx, user, webhooks.NewWebhook{URL: "https://hooks.example/h", Secret: "0123456789abcdef"}); err != nil {
			t.Fatal(err)
		}
	}
	var queued []webhook.Delivery
	for range webhooks.MaxUserSending + 1 {
		queued = append(queued, finish(t, store, report.Report{UserID: 1, URL: "https://site.example/", Status: report.StatusGenerated})...)
	}
	queued = append(queued, finish(t, store, report.Report{UserID: 2, URL: "https://site.example/", Status: report.StatusGenerated})...)
	var wg sync.WaitGroup
	for _, d := range queued[:webhooks.MaxUserSending] {
		wg.Go(func() { _ = h.Deliver(ctx, ports.DeliveryJob{DeliveryID: d.ID, Attempt: 1}) })
		<-sending
	}
	third := queued[webhooks.MaxUserSending]
	err := h.Deliver(ctx, ports.DeliveryJob{DeliveryID: third.ID, Attempt: 1})
	var snooze *ports.SnoozeError
	if !errors.As(err, &snooze) || snooze.After <= 0 {
		t.Errorf("user 1's delivery beyond %d at once = %v, want a snooze", webhooks.MaxUserSending, err)
	}
	if d, _ := store.Delivery(ctx, third.ID); d.Attempts != 0 || d.Status != webhook.DeliveryPending {
		t.Errorf("the snoozed delivery: %d attempts, %s; want 0, pending", d.Attempts, d.Status)
	}
	other := queued[len(queued)-1]
	if err := h.Deliver(ctx, ports.DeliveryJob{DeliveryID: other.ID, Attempt: 1}); err != nil {
		t.Errorf("user 2's delivery while user 1's hang = %v", err)
	}
	close(hang)
	wg.Wait()
	if err := h.Deliver(ctx, ports.DeliveryJob{DeliveryID: third.ID, Attempt: 1}); err != nil {
		t.Errorf("user 1's third delivery once the others finished = %v", err)
	}
}
