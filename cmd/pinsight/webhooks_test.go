package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/domain/webhook"
)

// webhookReceiver is a local endpoint that verifies each delivery's
// signature and timestamp as docs/site-analysis.md tells receivers to, and answers
// the statuses of fail in turn (then 200).
type webhookReceiver struct {
	*httptest.Server
	secret string
	mu     sync.Mutex
	fail   []int
	hits   int
	events []map[string]any
	bad    []string // what failed verification
}

func newWebhookReceiver(t *testing.T, secret string, fail ...int) *webhookReceiver {
	t.Helper()
	r := &webhookReceiver{secret: secret, fail: fail}
	r.Server = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.Close)
	return r
}

func (r *webhookReceiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hits++
	sig := req.Header.Get("Pinsight-Signature")
	switch {
	case req.Method != http.MethodPost || req.Header.Get("Content-Type") != "application/json":
		r.bad = append(r.bad, "method or content type: "+req.Method+" "+req.Header.Get("Content-Type"))
	case !webhook.VerifySignature(r.secret, sig, body, time.Now(), 5*time.Minute):
		r.bad = append(r.bad, "signature "+sig)
	case webhook.VerifySignature("another secret of 16+ chars", sig, body, time.Now(), 5*time.Minute):
		r.bad = append(r.bad, "verified with the wrong secret")
	case webhook.VerifySignature(r.secret, sig, body, time.Now().Add(6*time.Minute), 5*time.Minute):
		r.bad = append(r.bad, "verified 6 minutes later (replay window)")
	}
	if len(r.fail) > 0 {
		st := r.fail[0]
		r.fail = r.fail[1:]
		w.WriteHeader(st)
		return
	}
	var ev map[string]any
	if err := json.Unmarshal(body, &ev); err != nil {
		r.bad = append(r.bad, "body: "+err.Error())
	}
	r.events = append(r.events, ev)
}

func (r *webhookReceiver) state() (hits int, events []map[string]any, bad []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hits, append([]map[string]any(nil), r.events...), append([]string(nil), r.bad...)
}

func hostOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

type webhookJSON struct {
	ID           int64    `json:"id"`
	URL          string   `json:"url"`
	Events       []string `json:"events"`
	Secret       string   `json:"secret"`
	SecretPrefix string   `json:"secret_prefix"`
}

type deliveryJSON struct {
	ID             int64  `json:"id"`
	ReportID       int64  `json:"report_id"`
	Status         string `json:"status"`
	Attempts       int    `json:"attempts"`
	LastError      string `json:"last_error"`
	ResponseStatus int    `json:"response_status"`
}

// TestWebhooks runs the real server (SQLite with River; memory with the
// in-process runner) with the guard on (only the local fixture and
// receivers allowed): webhooks are validated, a finished report is
// delivered signed to every webhook, a 5xx is retried until it passes, a
// 4xx fails at once, a report failed by a batch job is delivered too, and
// deliveries are listed per webhook and per user.
func TestWebhooks(t *testing.T) {
	for _, storage := range []string{"sqlite", "memory"} {
		t.Run(storage, func(t *testing.T) {
			if storage == "memory" && testing.Short() {
				t.Skip("the same flow as on SQLite; -short runs one")
			}
			dbURL := "memory:"
			if storage == "sqlite" {
				dbURL = "sqlite:" + filepath.Join(t.TempDir(), "p.db")
			}
			testWebhooks(t, dbURL)
		})
	}
}

func testWebhooks(t *testing.T, dbURL string) {
	fixture := newFixtureSite(t, 0)
	const secret = "s3cret-of-the-receiver-0123456789"
	good := newWebhookReceiver(t, secret)
	flaky := newWebhookReceiver(t, secret, 500, 502)
	refusing := newWebhookReceiver(t, secret, 403)
	cfg := jobsServeConfig(dbURL, 5*time.Second)
	cfg.Site.Fetch.AllowPrivate = false
	cfg.Site.Fetch.AllowTargets = []string{hostOf(t, fixture.URL), hostOf(t, good.URL), hostOf(t, flaky.URL), hostOf(t, refusing.URL)}
	var srv *httpapi.Server
	a := fxtest.New(t, mustOptions(t, cfg), fx.Populate(&srv))
	a.RequireStart()
	defer a.RequireStop()
	base := "http://" + srv.Addr()
	c := newUser(t, base, "hooks@example.com")
	other := newUser(t, base, "other@example.com")

	// Validation: the secret's length, the URL's form, the guard.
	for _, bad := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"url": good.URL + "/hook", "secret": "short"}, "secret"},
		{map[string]any{"url": "ftp://example.com/hook", "secret": secret}, "url"},
		{map[string]any{"url": "/relative", "secret": secret}, "url"},
		{map[string]any{"url": "http://127.0.0.1:1/hook", "secret": secret}, "url"},      // loopback, not allowed
		{map[string]any{"url": "http://localhost/hook", "secret": secret}, "url"},        // loopback by name, never looked up
		{map[string]any{"url": "http://api.localhost./hook", "secret": secret}, "url"},   // the same under localhost
		{map[string]any{"url": "http://10.0.0.1/hook", "secret": secret}, "url"},         // private
		{map[string]any{"url": "http://example.com:8080/hook", "secret": secret}, "url"}, // port
		{map[string]any{"url": good.URL + "/hook", "secret": secret, "events": []string{"report.deleted"}}, "events"},
	} {
		var env struct {
			Success bool                `json:"success"`
			Errors  map[string][]string `json:"errors"`
		}
		st, raw := c.call(http.MethodPost, "/api/v1/account/webhooks", bad.body, &env)
		if st != http.StatusUnprocessableEntity || env.Success || len(env.Errors[bad.field]) == 0 {
			t.Errorf("create %v = %d %s, want 422 on %s", bad.body, st, raw, bad.field)
		}
	}

	create := func(u string) webhookJSON {
		t.Helper()
		var out struct{ Data webhookJSON }
		st, raw := c.call(http.MethodPost, "/api/v1/account/webhooks", map[string]any{"url": u, "secret": secret}, &out)
		if st != http.StatusCreated || out.Data.ID == 0 || out.Data.Secret != secret || out.Data.URL != u ||
			!slices.Equal(out.Data.Events, []string{"report.finished", "crawl.finished"}) { // no events given: every event
			t.Fatalf("create webhook %s = %d %s", u, st, raw)
		}
		return out.Data
	}
	hGood, hFlaky, hRefusing := create(good.URL+"/hook"), create(flaky.URL+"/hook"), create(refusing.URL+"/hook")

	// The list never shows the secret again.
	var list struct {
		Data struct{ Webhooks []webhookJSON }
	}
	st, raw := c.call(http.MethodGet, "/api/v1/account/webhooks", nil, &list)
	if st != http.StatusOK || len(list.Data.Webhooks) != 3 || strings.Contains(raw, secret) ||
		list.Data.Webhooks[0].ID != hGood.ID || !strings.HasPrefix(secret, strings.TrimSuffix(list.Data.Webhooks[0].SecretPrefix, "…")) {
		t.Fatalf("list = %d %s, want 3 webhooks without their secret", st, raw)
	}
	if st, raw := other.call(http.MethodGet, "/api/v1/account/webhooks", nil, &list); st != http.StatusOK || len(list.Data.Webhooks) != 0 {
		t.Errorf("another user's list = %d %s, want empty", st, raw)
	}

	// A finished report is delivered to all three.
	st, _, r := c.create(fixture.URL+"/fast", "")
	if st != http.StatusCreated || r.Status != "generated" {
		t.Fatalf("create report = %d %+v", st, r)
	}
	deliveries := func(client *apiClient, id int64) (int, []deliveryJSON) {
		var out struct {
			Data struct{ Deliveries []deliveryJSON }
		}
		st, _ := client.call(http.MethodGet, "/api/v1/account/webhooks/"+itoa(id)+"/deliveries", nil, &out)
		return st, out.Data.Deliveries
	}
	waitDelivery := func(h webhookJSON, status string) deliveryJSON {
		t.Helper()
		deadline := time.Now().Add(2 * time.Minute)
		for {
			st, ds := deliveries(c, h.ID)
			if st == http.StatusOK && len(ds) == 1 && ds[0].Status == status {
				return ds[0]
			}
			if time.Now().After(deadline) {
				t.Fatalf("deliveries of %s = %d %+v, want one %s", h.URL, st, ds, status)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}

	d := waitDelivery(hGood, "delivered")
	if d.Attempts != 1 || d.ResponseStatus != 200 || d.LastError != "" || d.ReportID != r.ID {
		t.Errorf("good delivery = %+v, want 1 attempt, 200, report %d", d, r.ID)
	}
	hits, events, bad := good.state()
	if hits != 1 || len(events) != 1 || len(bad) != 0 {
		t.Fatalf("good receiver: %d hits, %d events, failures %v", hits, len(events), bad)
	}
	ev := events[0]
	rep, _ := ev["report"].(map[string]any)
	if ev["event"] != "report.finished" || rep == nil || rep["id"] != float64(r.ID) || rep["status"] != "generated" ||
		rep["url"] != r.URL || rep["score"] != float64(r.Score) || rep["result"] != r.Result || ev["sent_at"] == nil {
		t.Errorf("event = %v, want report.finished of report %+v", ev, r)
	}

	// 500, 502, then 200: three attempts, delivered.
	d = waitDelivery(hFlaky, "delivered")
	if d.Attempts != 3 || d.ResponseStatus != 200 || d.LastError != "" {
		t.Errorf("flaky delivery = %+v, want 3 attempts ending 200", d)
	}
	if hits, events, bad := flaky.state(); hits != 3 || len(events) != 1 || len(bad) != 0 {
		t.Errorf("flaky receiver: %d hits, %d events, failures %v; want 3 hits, each signed", hits, len(events), bad)
	}

	// 403: one attempt, failed, not retried.
	d = waitDelivery(hRefusing, "failed")
	if d.Attempts != 1 || d.ResponseStatus != 403 || !strings.Contains(d.LastError, "403") {
		t.Errorf("4xx delivery = %+v, want 1 attempt, 403", d)
	}
	time.Sleep(1500 * time.Millisecond) // past the first backoff: a retry would have run
	if hits, _, bad := refusing.state(); hits != 1 || len(bad) != 0 {
		t.Errorf("4xx receiver: %d hits (failures %v), want 1", hits, bad)
	}

	// A report failed by its job (a batch of a URL the guard refuses) is an
	// event too.
	var batch struct {
		Data struct{ Reports []reportJSON }
	}
	if st, raw := c.call(http.MethodPost, "/api/v1/reports/batch", map[string]any{"urls": []string{"http://127.0.0.1:9/refused"}}, &batch); st != http.StatusAccepted || len(batch.Data.Reports) != 1 {
		t.Fatalf("batch = %d %s, want 202 with one report", st, raw)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if _, events, _ := good.state(); len(events) == 2 {
			rep, _ := events[1]["report"].(map[string]any)
			if rep == nil || rep["id"] != float64(batch.Data.Reports[0].ID) || rep["status"] != "failed" || rep["failure"] == "" || rep["failure"] == nil {
				t.Errorf("event of the failed report = %v", events[1])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no event for the report the batch's job failed")
		}
		time.Sleep(200 * time.Millisecond)
	}
	if _, _, bad := good.state(); len(bad) != 0 {
		t.Errorf("good receiver: failures %v", bad)
	}

	// Another user sees none of it; deleting takes the deliveries along.
	if st, _ := deliveries(other, hGood.ID); st != http.StatusNotFound {
		t.Errorf("another user's deliveries = %d, want 404", st)
	}
	if st, raw := other.call(http.MethodDelete, "/api/v1/account/webhooks/"+itoa(hGood.ID), nil, nil); st != http.StatusNotFound {
		t.Errorf("another user's delete = %d %s, want 404", st, raw)
	}
	if st, raw := c.call(http.MethodDelete, "/api/v1/account/webhooks/"+itoa(hGood.ID), nil, nil); st != http.StatusOK {
		t.Errorf("delete = %d %s", st, raw)
	}
	if st, _ := deliveries(c, hGood.ID); st != http.StatusNotFound {
		t.Errorf("deliveries of a deleted webhook = %d, want 404", st)
	}
}
