// Package webhooks is the webhook use cases: a user's endpoints (create,
// list, delete), the sending of the report.finished and crawl.finished
// deliveries the report and crawl stores queue (see ports.ReportStore and
// ports.CrawlStore), signed with each endpoint's
// secret, and the deliveries' record.
package webhooks

import (
	"context"
	"errors"
	"log/slog"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webhook"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// MaxPerUser caps a user's webhooks.
const MaxPerUser = 10

// MaxDeliveries is how many deliveries Deliveries lists, newest first.
const MaxDeliveries = 100

// Webhooks is the webhook use cases.
type Webhooks struct {
	store   ports.WebhookStore
	poster  ports.WebhookPoster
	now     func() time.Time
	log     *slog.Logger
	sending *ratelimit.Slots // each user's deliveries being sent, MaxUserSending at most
}

// MaxUserSending is how many deliveries of one user this process sends at
// once; the user's others wait (snoozed, no attempt counted), so receivers
// that hang hold at most this many delivery workers for their user.
const MaxUserSending = 2

// snoozeSending is how long a delivery waits for its user's turn.
const snoozeSending = time.Second

// New returns the use cases over store, delivering with poster the
// deliveries queue runs. It sets the queue's delivery worker.
func New(store ports.WebhookStore, queue ports.WebhookQueue, poster ports.WebhookPoster, log *slog.Logger) *Webhooks {
	if log == nil {
		log = slog.Default()
	}
	w := &Webhooks{store: store, poster: poster, now: time.Now, log: log, sending: ratelimit.NewSlots(MaxUserSending)}
	queue.SetDeliveryWorker(w.Deliver)
	return w
}

// NewWebhook is the input of Create. Events nil: every event.
type NewWebhook struct {
	URL    string
	Secret string
	Events []string
}

// Create validates in and stores the user's webhook. Errors:
// *report.ValidationError (url, secret, events; a URL the guard refuses;
// on url too when the user has MaxPerUser webhooks already).
func (h *Webhooks) Create(ctx context.Context, userID int64, in NewWebhook) (webhook.Webhook, error) {
	fields := map[string][]string{}
	u, err := url.Parse(in.URL)
	switch {
	case len(in.URL) > 2048:
		fields["url"] = []string{"must be at most 2048 characters"}
	case err != nil || !u.IsAbs() || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		fields["url"] = []string{"must be an absolute http or https URL"}
	default:
		if err := h.poster.Check(ctx, in.URL); err != nil {
			var fe *webpage.FetchError
			msg := "is not allowed"
			if errors.As(err, &fe) {
				msg = "is refused: " + fe.Reason
			}
			fields["url"] = []string{msg}
		}
	}
	if n := len([]rune(in.Secret)); n < webhook.MinSecret || len(in.Secret) > 256 {
		fields["secret"] = []string{"must be 16 to 256 characters"}
	}
	events := in.Events
	if events == nil {
		events = slices.Clone(webhook.Events)
	}
	if len(events) == 0 {
		fields["events"] = []string{"must name at least one event"}
	}
	for _, e := range events {
		if !webhook.Known(e) {
			fields["events"] = []string{"unknown event " + strconv.Quote(e) + " (known: " + strings.Join(webhook.Events, ", ") + ")"}
		}
	}
	if len(fields) > 0 {
		return webhook.Webhook{}, &report.ValidationError{Fields: fields}
	}
	w, err := h.store.CreateWebhook(ctx, webhook.Webhook{UserID: userID, URL: in.URL, Secret: in.Secret,
		Events: events, CreatedAt: h.now().UTC()}, MaxPerUser)
	if errors.Is(err, webhook.ErrLimit) {
		return webhook.Webhook{}, report.Invalid("url", "at most "+strconv.Itoa(MaxPerUser)+" webhooks per user")
	}
	return w, err
}

// List returns the user's webhooks, oldest first.
func (h *Webhooks) List(ctx context.Context, userID int64) ([]webhook.Webhook, error) {
	return h.store.Webhooks(ctx, userID)
}

// Delete deletes the user's webhook id. Errors: report.ErrNotFound.
func (h *Webhooks) Delete(ctx context.Context, userID, id int64) error {
	return h.store.DeleteWebhook(ctx, userID, id)
}

// Deliveries returns the deliveries of the user's webhook id, newest first
// (at most MaxDeliveries). Errors: report.ErrNotFound.
func (h *Webhooks) Deliveries(ctx context.Context, userID, id int64) ([]webhook.Delivery, error) {
	return h.store.Deliveries(ctx, userID, id, MaxDeliveries)
}

// Deliver is the worker of delivery jobs (a ports.DeliveryWorker): it
// POSTs the delivery's body, signed at the time of the attempt, and
// records the attempt. A network failure or a 5xx answer is retried (a
// *ports.RetryError) until webhook.MaxAttempts attempts; a 2xx
// delivers; anything else (a 3xx or 4xx answer, a refused target, the last
// attempt) fails the delivery. While MaxUserSending deliveries of the same
// user are being sent, the job snoozes (a *ports.SnoozeError) without an
// attempt.
func (h *Webhooks) Deliver(ctx context.Context, job ports.DeliveryJob) error {
	d, err := h.store.Delivery(ctx, job.DeliveryID)
	if errors.Is(err, report.ErrNotFound) {
		return nil // its webhook was deleted, or its report undone
	}
	if err != nil {
		return &ports.RetryError{Err: err}
	}
	if d.Status != webhook.DeliveryPending {
		return nil
	}
	w, err := h.store.Webhook(ctx, d.UserID, d.WebhookID)
	if errors.Is(err, report.ErrNotFound) {
		return nil
	}
	if err != nil {
		return &ports.RetryError{Err: err}
	}
	release, ok := h.sending.Take(d.UserID)
	if !ok {
		return &ports.SnoozeError{After: snoozeSending, Err: errors.New("webhooks: the user's other deliveries are being sent")}
	}
	defer release()
	now := h.now()
	m := webhook.Message{Event: d.Event, DeliveryID: d.ID, Signature: webhook.Signature(w.Secret, now, d.Body), Body: d.Body}
	actx, cancel := context.WithTimeout(ctx, webhook.Timeout)
	status, perr := h.poster.Post(actx, w.URL, m)
	cancel()
	var fe *webpage.FetchError
	retry := (perr != nil && !(errors.As(perr, &fe) && fe.Refused)) || status >= 500
	d, uerr := h.store.UpdateDelivery(context.WithoutCancel(ctx), d.ID, func(d *webhook.Delivery) error {
		d.Attempts++
		d.UpdatedAt = h.now().UTC()
		d.ResponseStatus = status
		switch {
		case perr != nil:
			d.LastError = perr.Error()
			if errors.As(perr, &fe) {
				d.LastError = fe.Reason
			}
		case status < 200 || status > 299:
			d.LastError = "the endpoint answered HTTP " + strconv.Itoa(status)
		default:
			d.LastError = ""
		}
		switch {
		case perr == nil && status >= 200 && status <= 299:
			d.Status = webhook.DeliveryDelivered
		case retry && d.Attempts < webhook.MaxAttempts:
			d.Status = webhook.DeliveryPending
		default:
			d.Status = webhook.DeliveryFailed
		}
		return nil
	})
	switch {
	case errors.Is(uerr, report.ErrNotFound):
		return nil
	case uerr != nil:
		return &ports.RetryError{Err: uerr}
	case d.Status == webhook.DeliveryPending:
		return &ports.RetryError{Err: errors.New(d.LastError)}
	case d.Status == webhook.DeliveryFailed:
		return errors.New("webhooks: delivery failed: " + d.LastError)
	}
	return nil
}
