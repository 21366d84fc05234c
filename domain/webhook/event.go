package webhook

import (
	"encoding/json"
	"time"

	"github.com/pinsight/pinsight/domain/report"
)

// EventReport is the report in a report.finished event.
type EventReport struct {
	ID          int64     `json:"id"`
	URL         string    `json:"url"`
	Project     string    `json:"project"`
	Status      string    `json:"status"`
	Score       int       `json:"score"`
	Result      string    `json:"result"`
	Failure     string    `json:"failure,omitempty"`
	Attempts    int       `json:"attempts"`
	GeneratedAt time.Time `json:"generated_at"`
}

// Event is the JSON body of a delivery.
type Event struct {
	Event  string      `json:"event"`
	Report EventReport `json:"report"`
	SentAt time.Time   `json:"sent_at"` // when the event was made (the signature carries each attempt's time)
}

// Finished returns the deliveries of the report.finished event of r, made
// at now: one pending delivery for each of hooks that belongs to r's user
// and wants the event, all with the same body. None when no hook wants it.
// Whether r just finished is the caller's to decide (report.Finishes).
func Finished(r report.Report, hooks []Webhook, now time.Time) ([]Delivery, error) {
	now = now.UTC()
	var ds []Delivery
	var body []byte
	for _, w := range hooks {
		if w.UserID != r.UserID || !w.Wants(EventReportFinished) {
			continue
		}
		if body == nil {
			var err error
			body, err = json.Marshal(Event{Event: EventReportFinished, SentAt: now, Report: EventReport{
				ID: r.ID, URL: r.URL, Project: r.Project, Status: string(r.Status), Score: r.Score, Result: string(r.Rating),
				Failure: r.Failure, Attempts: r.Attempts, GeneratedAt: r.GeneratedAt.UTC()}})
			if err != nil {
				return nil, err
			}
		}
		ds = append(ds, Delivery{WebhookID: w.ID, UserID: r.UserID, ReportID: r.ID, Event: EventReportFinished,
			Body: body, Status: DeliveryPending, CreatedAt: now, UpdatedAt: now})
	}
	return ds, nil
}
