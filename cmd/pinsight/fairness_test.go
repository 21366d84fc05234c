package main

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/app/reports"
)

// TestFairness: one user floods the server (ten webhooks whose receiver
// never answers, a batch of slow pages, a second batch past the daily
// quota) while another user's report, queued with wait=0, is generated
// within 15 s (it takes about a second, logged; queued behind the slow
// batch on four workers it would take 40 s, so the bound, three times the
// 5 s target, allows for a loaded machine and still fails an unfair
// queue); the flooder's accepted work stays within its quota.
func TestFairness(t *testing.T) {
	if testing.Short() {
		t.Skip("a timed run of the whole server: not with -short")
	}
	site := newFixtureSite(t, 4*time.Second) // /slow holds an analysis 4 s
	hang := make(chan struct{})
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select { // a receiver that never answers, until the test ends
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(receiver.Close)
	t.Cleanup(func() { close(hang) })

	const daily = 60
	cfg := jobsServeConfig("sqlite:"+filepath.Join(t.TempDir(), "p.db"), 10*time.Second)
	cfg.Site.UserDaily = daily
	cfg.Site.UserConcurrent = reports.DefaultUserConcurrent // as serve's flags default
	var srv *httpapi.Server
	a := fxtest.New(t, mustOptions(t, cfg), fx.Populate(&srv))
	a.RequireStart()
	defer a.RequireStop()
	base := "http://" + srv.Addr()
	flooder, victim := newUser(t, base, "flooder@example.com"), newUser(t, base, "victim@example.com")

	for i := range 10 {
		body := map[string]any{"url": receiver.URL + "/hook" + strconv.Itoa(i), "secret": "0123456789abcdef0123"}
		if st, raw := flooder.call(http.MethodPost, "/api/v1/account/webhooks", body, nil); st != http.StatusCreated {
			t.Fatalf("webhook %d = %d %s", i, st, raw)
		}
	}
	urls := func(path string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = site.URL + path + "?" + strconv.Itoa(i)
		}
		return out
	}
	// Finished reports fan out to the hanging receiver; slow ones hold the
	// flooder's analyses; the rest wait in the queue.
	for _, batch := range [][]string{urls("/fast", 10), urls("/slow", 40)} {
		if st, raw := flooder.call(http.MethodPost, "/api/v1/reports/batch", map[string]any{"urls": batch}, nil); st != http.StatusAccepted {
			t.Fatalf("flooder's batch of %d = %d %s, want 202", len(batch), st, raw)
		}
	}
	if st, raw := flooder.call(http.MethodPost, "/api/v1/reports/batch", map[string]any{"urls": urls("/slow", 20)}, nil); st != http.StatusTooManyRequests {
		t.Errorf("flooder's batch past the daily quota = %d %s, want 429", st, raw)
	}
	time.Sleep(2 * time.Second) // the flood is under way: deliveries hang, slow analyses run

	start := time.Now()
	st, loc, r := victim.create(site.URL+"/fast?victim", "?wait=0")
	if st != http.StatusAccepted || r.Status != "pending" {
		t.Fatalf("victim's create = %d %+v, want 202 pending", st, r)
	}
	got := victim.waitFinished(loc, 2*time.Minute)
	took := time.Since(start)
	t.Logf("the victim's report was %s %s after it was queued", got.Status, took.Round(time.Millisecond))
	if got.Status != "generated" || took > 15*time.Second {
		t.Errorf("victim's report: %s after %s, want generated within 15 s", got.Status, took)
	}

	var list struct {
		Data struct {
			Meta struct {
				Total int `json:"total"`
			} `json:"meta"`
		} `json:"data"`
	}
	if st, raw := flooder.call(http.MethodGet, "/api/v1/reports?per_page=10", nil, &list); st != http.StatusOK || list.Data.Meta.Total != 50 {
		t.Errorf("flooder's reports = %d %s: %d accepted, want the 50 within the daily quota of %d", st, raw, list.Data.Meta.Total, daily)
	}
}
