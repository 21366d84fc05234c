package main

import (
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/httpapi"
)

// TestReportBatchOverTheDailyQuota: a batch is charged to the user's daily
// quota when it is accepted, all or none: one that does not fit answers
// 429 with Retry-After (when all of it fits) and says how many fit now,
// queueing nothing; one larger than the whole quota is a 422 on urls.
func TestReportBatchOverTheDailyQuota(t *testing.T) {
	fixture := newFixtureSite(t, 0)
	cfg := jobsServeConfig("sqlite:"+filepath.Join(t.TempDir(), "p.db"), 5*time.Second)
	cfg.Site.UserDaily = 10 // one back every 2.4 h
	cfg.Site.HostPerMinute = 0
	var srv *httpapi.Server
	a := fxtest.New(t, mustOptions(t, cfg), fx.Populate(&srv))
	a.RequireStart()
	defer a.RequireStop()
	c := newUser(t, "http://"+srv.Addr(), "quota@example.com")
	urls := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fixture.URL + "/fast?" + strconv.Itoa(i)
		}
		return out
	}

	if st, raw := c.call(http.MethodPost, "/api/v1/reports/batch", map[string]any{"urls": urls(7)}, nil); st != http.StatusAccepted {
		t.Fatalf("batch of 7 of 10 = %d %s, want 202", st, raw)
	}
	st, h, raw := c.callHeader(http.MethodPost, "/api/v1/reports/batch", map[string]any{"urls": urls(5)}, nil)
	if st != http.StatusTooManyRequests || !strings.Contains(raw, "3 of these 5 fit now") {
		t.Errorf("batch of 5 more = %d %s, want 429 saying 3 of 5 fit now", st, raw)
	}
	// All 5 fit once 2 are back: 4.8 h, less the moments since the first batch.
	if s, err := strconv.Atoi(h.Get("Retry-After")); err != nil || s <= 17280-60 || s > 17280 {
		t.Errorf("Retry-After = %q, want about 17280 s", h.Get("Retry-After"))
	}
	if st, raw := c.call(http.MethodPost, "/api/v1/reports/batch", map[string]any{"urls": urls(11)}, nil); st != http.StatusUnprocessableEntity || !strings.Contains(raw, "urls") {
		t.Errorf("batch of 11 under a quota of 10 = %d %s, want 422 on urls", st, raw)
	}
	var list struct {
		Data struct {
			Reports []reportJSON `json:"reports"`
		} `json:"data"`
	}
	if st, raw := c.call(http.MethodGet, "/api/v1/reports?per_page=100", nil, &list); st != http.StatusOK || len(list.Data.Reports) != 7 {
		t.Errorf("reports = %d %s, want the first batch's 7 only", st, raw)
	}
	if st, raw := c.call(http.MethodPost, "/api/v1/reports/batch", map[string]any{"urls": urls(3)}, nil); st != http.StatusAccepted {
		t.Errorf("the 3 left = %d %s, want 202 (the refused batch took nothing)", st, raw)
	}
}
