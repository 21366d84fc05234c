package riverjobs

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/pinsight/pinsight/domain/webhook"
	"github.com/pinsight/pinsight/ports"
)

// deliveryArgs are the arguments of a webhook delivery job.
type deliveryArgs struct {
	DeliveryID int64 `json:"delivery_id"`
}

// Kind implements river.JobArgs.
func (deliveryArgs) Kind() string { return "pinsight_webhook_delivery" }

// SetDeliveryWorker implements ports.WebhookQueue.
func (q *Queue) SetDeliveryWorker(w ports.DeliveryWorker) { q.deliver.Store(&w) }

// InsertDelivery enqueues the delivery deliveryID within tx and returns the
// job's id: at most webhook.MaxAttempts runs.
func (q *Queue) InsertDelivery(ctx context.Context, tx *sql.Tx, deliveryID int64) (int64, error) {
	res, err := q.client.InsertTx(ctx, tx, deliveryArgs{DeliveryID: deliveryID},
		&river.InsertOpts{MaxAttempts: webhook.MaxAttempts, Queue: queueDeliveries})
	if err != nil {
		return 0, fmt.Errorf("riverjobs: enqueue delivery: %w", err)
	}
	return res.Job.ID, nil
}

// DeliveryBackoff is the wait before the next attempt of a delivery after
// attempt failed: attempt² seconds (1 s, 4 s, 9 s, 16 s).
func DeliveryBackoff(attempt int) time.Duration {
	return time.Duration(attempt*attempt) * time.Second
}

// deliveryWorker hands delivery jobs to the worker SetDeliveryWorker set.
type deliveryWorker struct {
	river.WorkerDefaults[deliveryArgs]
	q *Queue
}

// Work implements river.Worker.
func (w *deliveryWorker) Work(ctx context.Context, job *river.Job[deliveryArgs]) error {
	work := w.q.deliver.Load()
	if work == nil {
		return river.JobSnooze(time.Second)
	}
	return outcome((*work)(ctx, ports.DeliveryJob{ID: job.ID, DeliveryID: job.Args.DeliveryID, Attempt: job.Attempt}))
}

// NextRetry implements river.Worker: DeliveryBackoff, not River's default.
func (w *deliveryWorker) NextRetry(job *river.Job[deliveryArgs]) time.Time {
	return time.Now().Add(DeliveryBackoff(job.Attempt))
}

// Timeout implements river.Worker: one attempt is bounded by
// webhook.Timeout, plus room for the writes around it.
func (w *deliveryWorker) Timeout(*river.Job[deliveryArgs]) time.Duration {
	return webhook.Timeout + 10*time.Second
}

// Interface guard.
var _ river.Worker[deliveryArgs] = (*deliveryWorker)(nil)
