package main

import (
	"context"
	"database/sql"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/httpapi"
)

// historyJSON is the history of a report as the API gives it.
type historyJSON struct {
	Data struct {
		Runs []struct {
			Score   int      `json:"score"`
			Failing []string `json:"failing"`
			Broken  []string `json:"broken"`
			Fixed   []string `json:"fixed"`
		} `json:"runs"`
	} `json:"data"`
}

// TestScheduleAndHistory: a report scheduled daily is re-analysed by the
// sweep once due (here: its next run moved into the past), and its history
// keeps both runs with the checks that broke in between.
func TestScheduleAndHistory(t *testing.T) {
	fixture := newFixtureSite(t, 0)
	path := filepath.Join(t.TempDir(), "p.db")
	cfg := jobsServeConfig("sqlite:"+path, 5*time.Second)
	cfg.Site.Sweep = 300 * time.Millisecond
	var srv *httpapi.Server
	a := fxtest.New(t, mustOptions(t, cfg), fx.Populate(&srv))
	a.RequireStart()
	defer a.RequireStop()
	c := newUser(t, "http://"+srv.Addr(), "schedule@example.com")

	var created struct {
		Data struct {
			ID        int64      `json:"id"`
			Schedule  string     `json:"schedule"`
			NextRunAt *time.Time `json:"next_run_at"`
		} `json:"data"`
	}
	st, raw := c.call(http.MethodPost, "/api/v1/reports", map[string]any{"url": fixture.URL + "/fast", "schedule": "daily"}, &created)
	if st != http.StatusCreated || created.Data.Schedule != "daily" || created.Data.NextRunAt == nil ||
		time.Until(*created.Data.NextRunAt) < 23*time.Hour {
		t.Fatalf("create scheduled = %d %s, want daily with the next run in a day", st, raw)
	}
	if st, raw := c.call(http.MethodPost, "/api/v1/reports", map[string]any{"url": fixture.URL + "/fast", "schedule": "hourly"}, nil); st != http.StatusUnprocessableEntity {
		t.Errorf("schedule hourly = %d %s, want 422", st, raw)
	}
	hist := "/api/v1/reports/" + itoa(created.Data.ID) + "/history"
	var h historyJSON
	if st, raw := c.call(http.MethodGet, hist, nil, &h); st != http.StatusOK || len(h.Data.Runs) != 1 || len(h.Data.Runs[0].Broken) != 0 {
		t.Fatalf("history after create = %d %s, want one run", st, raw)
	}

	// The page loses its title; the report falls due.
	fixture.bare.Store(true)
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(context.Background(), "UPDATE reports SET next_run_at = '2000-01-01T00:00:00.000000Z' WHERE id = ?", created.Data.ID); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		h = historyJSON{}
		c.call(http.MethodGet, hist, nil, &h)
		if len(h.Data.Runs) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("history = %+v: the scheduled run did not happen", h.Data.Runs)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if latest := h.Data.Runs[0]; len(latest.Broken) == 0 || len(latest.Fixed) != 0 || latest.Score >= h.Data.Runs[1].Score {
		t.Errorf("latest run = %+v, want checks broken since the first (%+v)", latest, h.Data.Runs[1])
	}
	r := c.waitFinished("/api/v1/reports/"+itoa(created.Data.ID), 2*time.Minute)
	var again struct {
		Data struct {
			NextRunAt *time.Time `json:"next_run_at"`
		} `json:"data"`
	}
	c.call(http.MethodGet, "/api/v1/reports/"+itoa(created.Data.ID), nil, &again)
	if r.Status != "generated" || again.Data.NextRunAt == nil || time.Until(*again.Data.NextRunAt) < 23*time.Hour {
		t.Errorf("report after its scheduled run = %+v, next %v; want generated, next run a day later", r, again.Data.NextRunAt)
	}
	// Off stops it.
	again.Data.NextRunAt = nil
	if st, raw := c.call(http.MethodPut, "/api/v1/reports/"+itoa(created.Data.ID), map[string]any{"schedule": "off"}, &again); st != http.StatusOK || again.Data.NextRunAt != nil {
		t.Errorf("schedule off = %d %s, want no next run", st, raw[:min(len(raw), 300)])
	}
	if st, _ := c.call(http.MethodGet, "/api/v1/reports/999999/history", nil, nil); st != http.StatusNotFound {
		t.Errorf("history of an unknown report = %d, want 404", st)
	}
}
