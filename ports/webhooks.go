package ports

import (
	"context"

	"github.com/pinsight/pinsight/domain/webhook"
)

// WebhookStore keeps users' webhooks and their deliveries.
type WebhookStore interface {
	// CreateWebhook stores w (its ID is assigned) and returns it, unless
	// w's user already has limit webhooks. The count and the insert are one
	// step: concurrent creates for one user are serialised, so a user never
	// ends up with more than limit however many run at once.
	// Errors: webhook.ErrLimit.
	CreateWebhook(ctx context.Context, w webhook.Webhook, limit int) (webhook.Webhook, error)
	// Webhooks returns the user's webhooks, oldest first.
	Webhooks(ctx context.Context, userID int64) ([]webhook.Webhook, error)
	// Webhook returns the user's webhook id. Errors: report.ErrNotFound.
	Webhook(ctx context.Context, userID, id int64) (webhook.Webhook, error)
	// DeleteWebhook deletes the user's webhook id and its deliveries.
	// Errors: report.ErrNotFound.
	DeleteWebhook(ctx context.Context, userID, id int64) error
	// Delivery returns delivery id of any user. Errors: report.ErrNotFound.
	Delivery(ctx context.Context, id int64) (webhook.Delivery, error)
	// UpdateDelivery applies update to delivery id and stores it.
	// Errors: report.ErrNotFound, update's.
	UpdateDelivery(ctx context.Context, id int64, update func(*webhook.Delivery) error) (webhook.Delivery, error)
	// Deliveries returns the deliveries of the user's webhook id, newest
	// first, at most limit. Errors: report.ErrNotFound (no such webhook).
	Deliveries(ctx context.Context, userID, webhookID int64, limit int) ([]webhook.Delivery, error)
}

// DeliveryJob is one queued delivery attempt.
type DeliveryJob struct {
	ID         int64 // the queue's id of the job
	DeliveryID int64
	Attempt    int // 1 on the first run
}

// DeliveryWorker runs one delivery job; its answer is read as an
// AnalysisWorker's: nil done, a *SnoozeError again after its wait without
// counting an attempt, a *RetryError again after a backoff, any other
// error over.
type DeliveryWorker func(ctx context.Context, job DeliveryJob) error

// WebhookQueue runs the jobs of webhook deliveries: the queue that runs
// analyses (ports.Jobs) runs them too, from Start to Stop. Deliveries are
// stored and their jobs enqueued by the report store, in the write that
// finishes a report (see ReportStore), and only by a store wired to this
// queue: the in-memory store once a queue is made over it, a SQL store
// made with its engine's queue. A store without one queues no delivery,
// since nothing would run it.
type WebhookQueue interface {
	// SetDeliveryWorker sets what runs delivery jobs; call it before
	// Start. Without one, delivery jobs wait.
	SetDeliveryWorker(w DeliveryWorker)
}

// WebhookPoster sends one attempt of a delivery to url, through the
// analyser's guard against private targets. How a message is written on
// the wire (a POST, its headers) is the poster's.
type WebhookPoster interface {
	// Check refuses, with a *webpage.FetchError (Refused), a URL that Post
	// would refuse: its scheme, port or credentials, a name that always
	// means this machine (localhost), an address outside the public range
	// (written or looked up), a host name that does not exist. A lookup
	// that fails for now (a timeout, a server failure) is not a refusal.
	Check(ctx context.Context, rawURL string) error
	// Post sends m to url and returns the status the endpoint answered.
	// Errors: *webpage.FetchError (Refused: the guard said no, or the host
	// name does not exist, as Check decides; Transient: may pass).
	Post(ctx context.Context, url string, m webhook.Message) (int, error)
}
