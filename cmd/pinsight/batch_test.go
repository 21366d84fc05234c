package main

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/httpapi"
)

// TestReportBatch queues a batch over HTTP against a local fixture site
// whose site quota is 2 a minute: the first two run at once, the third is
// scheduled a minute later instead of failing.
func TestReportBatch(t *testing.T) {
	fixture := newFixtureSite(t, 0)
	cfg := jobsServeConfig("sqlite:"+filepath.Join(t.TempDir(), "p.db"), 5*time.Second)
	cfg.Site.HostPerMinute = 2
	var srv *httpapi.Server
	a := fxtest.New(t, mustOptions(t, cfg), fx.Populate(&srv))
	a.RequireStart()
	defer a.RequireStop()
	c := newUser(t, "http://"+srv.Addr(), "batch@example.com")

	st, raw := c.call(http.MethodPost, "/api/v1/reports/batch", map[string]any{"urls": []string{fixture.URL + "/fast", "ftp://x/", "nope"}}, nil)
	if st != http.StatusUnprocessableEntity || !strings.Contains(raw, "urls[1]") || !strings.Contains(raw, "urls[2]") {
		t.Errorf("batch with invalid URLs = %d %s, want 422 on urls[1] and urls[2]", st, raw)
	}
	many := make([]string, 101)
	for i := range many {
		many[i] = fixture.URL + "/fast"
	}
	if st, raw := c.call(http.MethodPost, "/api/v1/reports/batch", map[string]any{"urls": many}, nil); st != http.StatusUnprocessableEntity {
		t.Errorf("batch of 101 = %d %s, want 422", st, raw)
	}
	var list struct {
		Data struct {
			Reports []reportJSON `json:"reports"`
		} `json:"data"`
	}
	if st, raw := c.call(http.MethodGet, "/api/v1/reports", nil, &list); st != http.StatusOK || len(list.Data.Reports) != 0 {
		t.Fatalf("reports after refused batches = %d %s, want none", st, raw)
	}

	var batch struct {
		Data struct {
			Reports []reportJSON `json:"reports"`
		} `json:"data"`
	}
	urls := []string{fixture.URL + "/fast", fixture.URL + "/fast?b", fixture.URL + "/fast?c"}
	if st, raw := c.call(http.MethodPost, "/api/v1/reports/batch", map[string]any{"urls": urls, "privacy": 0}, &batch); st != http.StatusAccepted || len(batch.Data.Reports) != 3 {
		t.Fatalf("batch = %d %s, want 202 with 3 reports", st, raw)
	}
	for i, r := range batch.Data.Reports {
		if r.Status != "pending" || r.URL != urls[i] {
			t.Errorf("report %d = %+v, want pending for %s", i, r, urls[i])
		}
	}
	for _, r := range batch.Data.Reports[:2] {
		if got := c.waitFinished("/api/v1/reports/"+itoa(r.ID), 2*time.Minute); got.Status != "generated" {
			t.Errorf("report %d = %+v, want generated", r.ID, got)
		}
	}
	third := c.report("/api/v1/reports/" + itoa(batch.Data.Reports[2].ID))
	if third.Status != "pending" || third.Attempts != 0 {
		t.Errorf("third report = %+v, want still pending: the site's quota schedules it a minute later", third)
	}
	// A batch under an Idempotency-Key is queued once.
	keyed := func(urls []string) (int, string, []reportJSON) {
		var env struct {
			Data struct {
				Reports []reportJSON `json:"reports"`
			} `json:"data"`
		}
		st, h, raw := c.callHeaderWith(http.MethodPost, "/api/v1/reports/batch", map[string]any{"urls": urls}, &env, "Idempotency-Key", "batch-1")
		if st == http.StatusUnprocessableEntity {
			return st, raw, nil
		}
		return st, h.Get("Idempotent-Replayed"), env.Data.Reports
	}
	st1, replayed1, first := keyed([]string{fixture.URL + "/fast?k"})
	st2, replayed2, second := keyed([]string{fixture.URL + "/fast?k"})
	if st1 != http.StatusAccepted || replayed1 != "" || st2 != http.StatusAccepted || replayed2 != "true" ||
		len(first) != 1 || len(second) != 1 || first[0].ID != second[0].ID {
		t.Errorf("keyed batch twice = %d %q %+v, %d %q %+v; want one queue and a replay", st1, replayed1, first, st2, replayed2, second)
	}
	if st, raw, _ := keyed([]string{fixture.URL + "/other"}); st != http.StatusUnprocessableEntity || !strings.Contains(raw, "Idempotency-Key") {
		t.Errorf("keyed batch with another body = %d %s, want 422 on Idempotency-Key", st, raw)
	}
	// Its public page (privacy 0) shows a report not analysed yet.
	res, err := http.Get("http://" + srv.Addr() + third.ShareURL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("page of a pending report = %d, want 200", res.StatusCode)
	}
}
