package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/webhooks"
	"github.com/pinsight/pinsight/domain/webhook"
)

// webhookData is one of the caller's webhooks. The secret is shown once,
// in the answer that creates it; afterwards only its prefix.
type webhookData struct {
	ID           int64     `json:"id"`
	URL          string    `json:"url"`
	Events       []string  `json:"events"`
	Secret       string    `json:"secret,omitempty" doc:"Only in the answer that creates the webhook."`
	SecretPrefix string    `json:"secret_prefix" doc:"The first characters of the secret, to tell webhooks apart."`
	CreatedAt    time.Time `json:"created_at"`
}

func webhookDataOf(w webhook.Webhook, withSecret bool) webhookData {
	d := webhookData{ID: w.ID, URL: w.URL, Events: list(w.Events), SecretPrefix: w.SecretPrefix(), CreatedAt: w.CreatedAt.UTC()}
	if d.Events == nil {
		d.Events = []string{}
	}
	if withSecret {
		d.Secret = w.Secret
	}
	return d
}

// webhooksData lists the caller's webhooks.
type webhooksData struct {
	Webhooks []webhookData `json:"webhooks"`
}

// deliveryData is one delivery of an event to a webhook.
type deliveryData struct {
	ID             int64     `json:"id"`
	ReportID       int64     `json:"report_id,omitempty" doc:"The report of a report.finished event; absent for a crawl.finished one."`
	CrawlID        int64     `json:"crawl_id,omitempty" doc:"The crawl of a crawl.finished event; absent for a report.finished one."`
	Event          string    `json:"event"`
	Status         string    `json:"status" enum:"pending,delivered,failed" doc:"pending: attempts remain; delivered: a 2xx answer; failed: a 3xx or 4xx answer, a refused target, or 5 attempts without success."`
	Attempts       int       `json:"attempts"`
	LastError      string    `json:"last_error" doc:"Why the last attempt failed (empty when it succeeded or none ran)."`
	ResponseStatus int       `json:"response_status" doc:"The HTTP status of the last attempt's answer (0: no answer)."`
	CreatedAt      time.Time `json:"created_at"`
	UpdatedAt      time.Time `json:"updated_at" doc:"When the last attempt ended."`
}

// deliveriesData lists a webhook's deliveries, newest first.
type deliveriesData struct {
	Deliveries []deliveryData `json:"deliveries" doc:"At most 100, newest first."`
}

type webhookInput struct {
	Body struct {
		URL    string   `json:"url" maxLength:"2048" doc:"Where events are POSTed: an absolute http or https URL the analyser could fetch (the same guard against private addresses and ports)."`
		Secret string   `json:"secret" doc:"16 to 256 characters; signs every delivery (HMAC-SHA256). Never shown again."`
		Events []string `json:"events,omitempty" maxItems:"10" doc:"Events to receive: report.finished, crawl.finished (default all)."`
	}
}

type webhookIDInput struct {
	ID int64 `path:"id" doc:"Webhook id."`
}

// webhookDoc documents deliveries and their signature.
const webhookDoc = "When one of the caller's reports finishes (generated or failed: on creation, re-analysis, a batch or a " +
	"schedule), each webhook receives a POST with a JSON body " +
	"`{\"event\":\"report.finished\",\"report\":{\"id\",\"url\",\"project\",\"status\",\"score\",\"result\",\"failure\",\"attempts\",\"generated_at\"},\"sent_at\"}`. " +
	"When one of the caller's crawls ends (finished, cancelled or failed), each webhook that asked for `crawl.finished` receives " +
	"`{\"event\":\"crawl.finished\",\"crawl\":{\"id\",\"url\",\"site\",\"status\",\"score\",\"result\",\"failure\"," +
	"\"pages\":{\"discovered\",\"crawled\",\"failed\",\"blocked\"},\"issues\":[{\"type\",\"severity\",\"count\"}],\"created_at\",\"finished_at\"},\"sent_at\"}`. " +
	"Both carry the headers `Pinsight-Event`, `Pinsight-Delivery` (the delivery id) and " +
	"`Pinsight-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<raw body>\" keyed by the secret>`. " +
	"Receivers verify it: recompute the HMAC over the timestamp, a dot and the raw body, compare in constant time, and " +
	"refuse a timestamp more than 5 minutes from their clock (replays). Each attempt is signed anew. " +
	"An attempt times out after 5 s; no answer or a 5xx is retried with backoff (1 s, 4 s, 9 s, 16 s; at most 5 attempts); " +
	"a 2xx delivers; a 3xx or 4xx, or a target the guard refuses, fails at once. Redirects are not followed."

// registerWebhooks registers the webhook operations under /account/webhooks.
func registerWebhooks(api huma.API, hooks *webhooks.Webhooks, acc *accounts.Accounts) {
	g := group(api)
	tags := []string{"Webhooks"}
	op := huma.Operation{OperationID: "create-webhook", Method: http.MethodPost, Path: "/account/webhooks",
		DefaultStatus: http.StatusCreated, Tags: tags, Summary: "Add a webhook",
		Description: "The answer is the only one that shows the secret. A URL that is not absolute http(s), or that the " +
			"analyser's guard refuses (private or loopback addresses, written or looked up, localhost included; a host name " +
			"that does not exist; ports other than 80 and 443), is 422 on url, the reason naming the serve flag " +
			"(--allow-target, --allow-port) that lets it through when one does, as a report's; a secret " +
			"shorter than 16 characters is 422 on secret; at most 10 webhooks per user. " + webhookDoc}
	protect(acc, &op)
	registerForm(g, op, func(ctx context.Context, in *webhookInput) (*reply[webhookData], error) {
		w, err := hooks.Create(ctx, caller(ctx).User.ID, webhooks.NewWebhook{URL: in.Body.URL, Secret: in.Body.Secret, Events: in.Body.Events})
		if err != nil {
			return nil, toHTTP(err)
		}
		r := ok(webhookDataOf(w, true))
		r.Status = http.StatusCreated
		return r, nil
	})
	op = huma.Operation{OperationID: "list-webhooks", Method: http.MethodGet, Path: "/account/webhooks", Tags: tags,
		Summary: "The caller's webhooks", Description: "Oldest first; secrets are shown by their prefix only."}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, _ *struct{}) (*reply[webhooksData], error) {
		ws, err := hooks.List(ctx, caller(ctx).User.ID)
		if err != nil {
			return nil, toHTTP(err)
		}
		out := webhooksData{Webhooks: make([]webhookData, 0, len(ws))}
		for _, w := range ws {
			out.Webhooks = append(out.Webhooks, webhookDataOf(w, false))
		}
		return ok(out), nil
	})
	op = huma.Operation{OperationID: "delete-webhook", Method: http.MethodDelete, Path: "/account/webhooks/{id}", Tags: tags,
		Summary: "Delete one of the caller's webhooks", Description: "Its deliveries go with it; pending ones are not sent. Another user's webhook is 404."}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *webhookIDInput) (*reply[deletedData], error) {
		if err := hooks.Delete(ctx, caller(ctx).User.ID, in.ID); err != nil {
			return nil, toHTTP(err)
		}
		return ok(deletedData{ID: in.ID, Deleted: true}), nil
	})
	op = huma.Operation{OperationID: "list-webhook-deliveries", Method: http.MethodGet, Path: "/account/webhooks/{id}/deliveries",
		Tags: tags, Summary: "The deliveries of one of the caller's webhooks",
		Description: "Newest first, at most 100, each with its status, attempts, last error and last answer's status. Another user's webhook is 404."}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *webhookIDInput) (*reply[deliveriesData], error) {
		ds, err := hooks.Deliveries(ctx, caller(ctx).User.ID, in.ID)
		if err != nil {
			return nil, toHTTP(err)
		}
		out := deliveriesData{Deliveries: make([]deliveryData, 0, len(ds))}
		for _, d := range ds {
			out.Deliveries = append(out.Deliveries, deliveryData{ID: d.ID, ReportID: d.ReportID, CrawlID: d.CrawlID, Event: d.Event,
				Status: string(d.Status), Attempts: d.Attempts, LastError: d.LastError, ResponseStatus: d.ResponseStatus,
				CreatedAt: d.CreatedAt.UTC(), UpdatedAt: d.UpdatedAt.UTC()})
		}
		return ok(out), nil
	})
}
