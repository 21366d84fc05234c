package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/app/webhooks"
	"github.com/pinsight/pinsight/ports"
)

// queuedCrawlRoutes are the account and crawl operations over memory
// stores whose crawls and deliveries stay queued (the queue is never
// started), reports' store keeping the webhooks and Idempotency-Keys.
func queuedCrawlRoutes(reports *memory.ReportStore) httpapi.Routes {
	store, jobs := memory.NewCrawlStore(reports), memory.NewJobs(reports, ports.JobSettings{})
	jobs.Crawls(store)
	return httpapi.Routes{Accounts: accounts.New(memory.NewAccountStore(), apitest.Passwords),
		Crawls:   crawls.New(store, jobs, nil, apitest.Passwords, crawls.Config{DailyPages: -1, ActiveLimit: -1}),
		Webhooks: webhooks.New(reports, jobs, nil, nil)}
}

// TestCrawlSchedule: POST /crawls takes a schedule, the crawl shows it
// with its next run, and PATCH /crawls/{id} changes or stops it.
func TestCrawlSchedule(t *testing.T) {
	h := apitest.NewHandler(t, queuedCrawlRoutes(memory.NewReportStore()))
	key := apitest.Bearer(apitest.Login(t, h, "sched@example.com"))
	other := apitest.Bearer(apitest.Login(t, h, "other@example.com"))

	res := apitest.Do(t, h, http.MethodPost, "/api/v1/crawls", apitest.JSONType,
		`{"url":"https://example.com/","schedule":"daily","headers":{"Cookie":"a=b"}}`, key...)
	if res.Status != http.StatusUnprocessableEntity || len(res.Errors["schedule"]) == 0 {
		t.Fatalf("schedule with headers = %d %v", res.Status, res.Errors)
	}
	before := time.Now()
	res = apitest.Do(t, h, http.MethodPost, "/api/v1/crawls", apitest.JSONType, `{"url":"https://example.com/","schedule":"weekly"}`, key...)
	var c wire.CrawlItem
	res.Decode(t, &c)
	if res.Status != http.StatusAccepted || c.Schedule != "weekly" || c.NextRunAt == nil || c.ScheduledFrom != 0 ||
		c.NextRunAt.Before(before.Add(7*24*time.Hour-time.Second)) || c.NextRunAt.After(time.Now().Add(7*24*time.Hour)) {
		t.Fatalf("created = %d %+v", res.Status, c)
	}
	path := "/api/v1/crawls/" + apitest.Itoa(c.ID)

	res = apitest.Do(t, h, http.MethodPatch, path, apitest.JSONType, `{"schedule":"daily"}`, key...)
	res.Decode(t, &c)
	if res.Status != http.StatusOK || c.Schedule != "daily" || c.NextRunAt == nil || c.NextRunAt.After(time.Now().Add(24*time.Hour)) {
		t.Fatalf("PATCH daily = %d %+v", res.Status, c)
	}
	for _, tc := range []struct {
		body   string
		who    []string
		status int
	}{
		{`{"schedule":"hourly"}`, key, http.StatusUnprocessableEntity},
		{`{}`, key, http.StatusBadRequest},
		{`{"schedule":`, key, http.StatusBadRequest},
		{`{"schedule":"off"}`, other, http.StatusNotFound},
	} {
		if res := apitest.Do(t, h, http.MethodPatch, path, apitest.JSONType, tc.body, tc.who...); res.Status != tc.status {
			t.Errorf("PATCH %s = %d %s %v, want %d", tc.body, res.Status, res.Message, res.Errors, tc.status)
		}
	}
	res = apitest.Do(t, h, http.MethodPatch, path, apitest.JSONType, `{"schedule":"off"}`, key...)
	c = wire.CrawlItem{}
	res.Decode(t, &c)
	if res.Status != http.StatusOK || c.Schedule != "off" || c.NextRunAt != nil || strings.Contains(string(res.Data), "next_run_at") {
		t.Fatalf("PATCH off = %d %s", res.Status, res.Data)
	}
	res = apitest.Do(t, h, http.MethodPatch, path, apitest.JSONType, `{"schedule":"daily"}`, key...)
	if res.Status != http.StatusUnprocessableEntity || len(res.Errors["schedule"]) == 0 {
		t.Fatalf("PATCH daily on a crawl without a schedule = %d %v", res.Status, res.Errors)
	}
}
