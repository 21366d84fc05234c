package memory

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webhook"
	"github.com/pinsight/pinsight/ports"
)

// hookStore holds the webhooks and deliveries of a ReportStore.
type hookStore struct {
	mu         sync.Mutex
	hooks      map[int64]webhook.Webhook
	deliveries map[int64]webhook.Delivery
	lastHook   int64
	lastDeliv  int64
}

func (h *hookStore) init() {
	if h.hooks == nil {
		h.hooks, h.deliveries = map[int64]webhook.Webhook{}, map[int64]webhook.Delivery{}
	}
}

func cloneHook(w webhook.Webhook) webhook.Webhook {
	w.Events = slices.Clone(w.Events)
	return w
}

func cloneDelivery(d webhook.Delivery) webhook.Delivery {
	d.Body = slices.Clone(d.Body)
	return d
}

// CreateWebhook implements ports.WebhookStore: the count and the insert
// are under the store's mutex.
func (s *ReportStore) CreateWebhook(_ context.Context, w webhook.Webhook, limit int) (webhook.Webhook, error) {
	h := &s.hooks
	h.mu.Lock()
	defer h.mu.Unlock()
	h.init()
	n := 0
	for _, o := range h.hooks {
		if o.UserID == w.UserID {
			n++
		}
	}
	if n >= limit {
		return webhook.Webhook{}, webhook.ErrLimit
	}
	h.lastHook++
	w.ID = h.lastHook
	w.CreatedAt = w.CreatedAt.UTC().Truncate(time.Microsecond)
	h.hooks[w.ID] = cloneHook(w)
	return cloneHook(w), nil
}

// Webhooks implements ports.WebhookStore.
func (s *ReportStore) Webhooks(_ context.Context, userID int64) ([]webhook.Webhook, error) {
	h := &s.hooks
	h.mu.Lock()
	defer h.mu.Unlock()
	out := []webhook.Webhook{}
	for _, w := range h.hooks {
		if w.UserID == userID {
			out = append(out, cloneHook(w))
		}
	}
	slices.SortFunc(out, func(a, b webhook.Webhook) int { return int(a.ID - b.ID) })
	return out, nil
}

// Webhook implements ports.WebhookStore.
func (s *ReportStore) Webhook(_ context.Context, userID, id int64) (webhook.Webhook, error) {
	h := &s.hooks
	h.mu.Lock()
	defer h.mu.Unlock()
	w, ok := h.hooks[id]
	if !ok || w.UserID != userID {
		return webhook.Webhook{}, report.ErrNotFound
	}
	return cloneHook(w), nil
}

// DeleteWebhook implements ports.WebhookStore.
func (s *ReportStore) DeleteWebhook(_ context.Context, userID, id int64) error {
	h := &s.hooks
	h.mu.Lock()
	defer h.mu.Unlock()
	w, ok := h.hooks[id]
	if !ok || w.UserID != userID {
		return report.ErrNotFound
	}
	delete(h.hooks, id)
	for did, d := range h.deliveries {
		if d.WebhookID == id {
			delete(h.deliveries, did)
		}
	}
	return nil
}

// Delivery implements ports.WebhookStore.
func (s *ReportStore) Delivery(_ context.Context, id int64) (webhook.Delivery, error) {
	h := &s.hooks
	h.mu.Lock()
	defer h.mu.Unlock()
	d, ok := h.deliveries[id]
	if !ok {
		return webhook.Delivery{}, report.ErrNotFound
	}
	return cloneDelivery(d), nil
}

// UpdateDelivery implements ports.WebhookStore.
func (s *ReportStore) UpdateDelivery(_ context.Context, id int64, update func(*webhook.Delivery) error) (webhook.Delivery, error) {
	h := &s.hooks
	h.mu.Lock()
	defer h.mu.Unlock()
	d, ok := h.deliveries[id]
	if !ok {
		return webhook.Delivery{}, report.ErrNotFound
	}
	d = cloneDelivery(d)
	if err := update(&d); err != nil {
		return webhook.Delivery{}, err
	}
	d.ID = id
	d.CreatedAt, d.UpdatedAt = d.CreatedAt.UTC().Truncate(time.Microsecond), d.UpdatedAt.UTC().Truncate(time.Microsecond)
	h.deliveries[id] = cloneDelivery(d)
	return d, nil
}

// Deliveries implements ports.WebhookStore.
func (s *ReportStore) Deliveries(_ context.Context, userID, webhookID int64, limit int) ([]webhook.Delivery, error) {
	h := &s.hooks
	h.mu.Lock()
	defer h.mu.Unlock()
	if w, ok := h.hooks[webhookID]; !ok || w.UserID != userID {
		return nil, report.ErrNotFound
	}
	out := []webhook.Delivery{}
	for _, d := range h.deliveries {
		if d.WebhookID == webhookID {
			out = append(out, cloneDelivery(d))
		}
	}
	slices.SortFunc(out, func(a, b webhook.Delivery) int { return int(b.ID - a.ID) })
	return out[:min(len(out), limit)], nil
}

// addDeliveries stores ds, IDs assigned.
func (s *ReportStore) addDeliveries(ds []webhook.Delivery) []webhook.Delivery {
	h := &s.hooks
	h.mu.Lock()
	defer h.mu.Unlock()
	h.init()
	out := make([]webhook.Delivery, len(ds))
	for i, d := range ds {
		h.lastDeliv++
		d.ID = h.lastDeliv
		d.CreatedAt, d.UpdatedAt = d.CreatedAt.UTC().Truncate(time.Microsecond), d.UpdatedAt.UTC().Truncate(time.Microsecond)
		h.deliveries[d.ID] = cloneDelivery(d)
		out[i] = cloneDelivery(d)
	}
	return out
}

// queueDeliveries stores ds and enqueues a job for each: the store's
// queueDeliveries once NewJobs made j over it. Called with the store's
// lock held.
func (j *Jobs) queueDeliveries(ds []webhook.Delivery) {
	out := j.store.addDeliveries(ds)
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, d := range out {
		j.lastID++
		job := &memJob{AnalysisJob: ports.AnalysisJob{ID: j.lastID}, delivery: d.ID}
		j.jobs[job.ID] = job
		j.scheduleLocked(job, 0)
	}
}

// finishedLocked returns the report.finished deliveries of next, written
// over prev, to its user's webhooks that want the event: none unless the
// write finishes the report (report.Finishes) and a queue (NewJobs) runs
// deliveries. s.mu is held; the caller queues them (queueDeliveries) with
// the write, so both happen under that lock or neither does.
func (s *ReportStore) finishedLocked(prev, next report.Report) ([]webhook.Delivery, error) {
	if s.queueDeliveries == nil || !report.Finishes(prev, next) {
		return nil, nil
	}
	hooks, err := s.Webhooks(context.Background(), next.UserID)
	if err != nil {
		return nil, err
	}
	return webhook.Finished(next, hooks, time.Now())
}

// crawlFinished returns the crawl.finished deliveries of c, just ended,
// to its user's webhooks that want the event: none unless a queue
// (NewJobs) runs deliveries.
func (s *ReportStore) crawlFinished(c crawl.Crawl) ([]webhook.Delivery, error) {
	if s.queueDeliveries == nil {
		return nil, nil
	}
	hooks, err := s.Webhooks(context.Background(), c.UserID)
	if err != nil {
		return nil, err
	}
	return webhook.CrawlFinished(c, hooks, time.Now())
}

// SetDeliveryWorker implements ports.WebhookQueue.
func (j *Jobs) SetDeliveryWorker(w ports.DeliveryWorker) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.deliver = w
}

// deliveryBackoff is the wait after a failed attempt of a delivery, as on
// River (riverjobs.DeliveryBackoff): attempt² seconds.
func deliveryBackoff(attempt int) time.Duration { return time.Duration(attempt*attempt) * time.Second }

// Interface guards.
var (
	_ ports.WebhookStore = (*ReportStore)(nil)
	_ ports.WebhookQueue = (*Jobs)(nil)
)
