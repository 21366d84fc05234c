package webhook_test

import (
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webhook"
)

// TestFinished: one pending delivery per hook of the report's user that
// wants the event, each with the event's JSON, byte for byte.
func TestFinished(t *testing.T) {
	now := time.Date(2030, 1, 2, 3, 4, 5, 6000, time.FixedZone("IST", 19800))
	r := report.Report{ID: 7, UserID: 1, URL: "https://site.example/", Project: "site.example", Status: report.StatusFailed,
		Score: 0, Failure: "no answer", Attempts: 3, GeneratedAt: time.Date(2030, 1, 2, 3, 0, 0, 0, time.UTC)}
	hooks := []webhook.Webhook{
		{ID: 1, UserID: 1, Events: []string{webhook.EventReportFinished}},
		{ID: 2, UserID: 1, Events: []string{"report.other"}},
		{ID: 3, UserID: 2, Events: []string{webhook.EventReportFinished}}, // another user's
		{ID: 4, UserID: 1, Events: []string{"report.other", webhook.EventReportFinished}},
	}
	ds, err := webhook.Finished(r, hooks, now)
	if err != nil || len(ds) != 2 || ds[0].WebhookID != 1 || ds[1].WebhookID != 4 {
		t.Fatalf("Finished = %+v, %v; want deliveries to hooks 1 and 4", ds, err)
	}
	const want = `{"event":"report.finished","report":{"id":7,"url":"https://site.example/","project":"site.example",` +
		`"status":"failed","score":0,"result":"","failure":"no answer","attempts":3,"generated_at":"2030-01-02T03:00:00Z"},` +
		`"sent_at":"2030-01-01T21:34:05.000006Z"}`
	for _, d := range ds {
		if string(d.Body) != want || d.UserID != 1 || d.ReportID != 7 || d.Event != webhook.EventReportFinished ||
			d.Status != webhook.DeliveryPending || d.Attempts != 0 || !d.CreatedAt.Equal(now) || d.CreatedAt.Location() != time.UTC || !d.UpdatedAt.Equal(now) {
			t.Errorf("delivery to hook %d: body %s, %+v; want pending, made at now, body %s", d.WebhookID, d.Body, d, want)
		}
	}
	if ds, err := webhook.Finished(r, hooks[1:3], now); err != nil || len(ds) != 0 {
		t.Errorf("Finished with no hook wanting it = %+v, %v; want none", ds, err)
	}
}
