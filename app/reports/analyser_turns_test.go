package reports_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// throttledSite is a local site that records, in order, the pages it
// served to Bob (/bob/N) and Alice (/alice) and when: one per analysis
// (robots.txt and the fetcher's 404 probe apart).
type throttledSite struct {
	*httptest.Server
	mu    sync.Mutex
	pages []string
	at    []time.Time
}

func newThrottledSite(t *testing.T) *throttledSite {
	s := &throttledSite{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/bob/") && r.URL.Path != "/alice" { // robots.txt, the 404 probe
			http.NotFound(w, r)
			return
		}
		s.mu.Lock()
		s.pages, s.at = append(s.pages, r.URL.Path), append(s.at, time.Now())
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, "<!doctype html><html lang=en><title>t</title><h1>t</h1></html>")
	}))
	t.Cleanup(s.Close)
	return s
}

// served returns the pages served so far and when.
func (s *throttledSite) served() ([]string, []time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.pages), slices.Clone(s.at)
}

// throttledReports runs reports with in-process jobs over the real fetcher,
// allowed to reach site, with every analysis of it throttled per address
// at limit (the per-site throttle off, so the address alone decides).
func throttledReports(t *testing.T, site *throttledSite, limit ratelimit.Limit) (*reports.Reports, *memory.ReportStore) {
	quiet := slog.New(slog.DiscardHandler)
	fetcher, err := fetch.New(fetch.Config{AllowTargets: []string{site.Listener.Addr().String()}, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	an := reports.NewAnalyser(fetcher, reports.AnalyserConfig{HostLimit: reports.NoLimit, AddressLimit: limit,
		UserDaily: reports.NoLimit, Limiter: memory.NewRateLimiter()})
	store := memory.NewReportStore()
	jobs := memory.NewJobs(store, ports.JobSettings{Workers: 4})
	rs := reports.New(store, an, cheapPasswords, reports.WithJobs(jobs, ports.JobSettings{}, quiet))
	if err := jobs.Start(context.Background(), rs.RunAnalysis); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		_ = jobs.Stop(ctx)
	})
	return rs, store
}

// waitUntil polls cond every 20 ms until it holds or within passes.
func waitUntil(within time.Duration, cond func() bool) bool {
	for end := time.Now().Add(within); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// TestThrottledSiteServesUsersInTurns: Bob queues a backlog of analyses
// of one throttled site, then Alice asks for one analysis of it: hers
// comes next, within a turn or two of Bob's, not behind his backlog; and
// the site still sees no more analyses than its throttle allows.
func TestThrottledSiteServesUsersInTurns(t *testing.T) {
	ctx := context.Background()
	site := newThrottledSite(t)
	limit := ratelimit.Limit{Requests: 2, Window: 2 * time.Second} // one a second, bursts of 2
	rs, store := throttledReports(t, site, limit)
	const bob, alice = 1, 2
	const backlog = 200
	zero := time.Duration(0)
	start := time.Now()
	for i := range backlog {
		if _, err := rs.Create(ctx, bob, reports.NewReport{URL: fmt.Sprintf("%s/bob/%d", site.URL, i), Wait: &zero}); err != nil {
			t.Fatal(err)
		}
	}
	// Bob's analyses are under way: the burst spent, the throttle holds.
	if !waitUntil(20*time.Second, func() bool { p, _ := site.served(); return len(p) >= 4 }) {
		t.Fatal("Bob's analyses did not start")
	}
	before, _ := site.served()
	asked := time.Now()
	created, err := rs.Create(ctx, alice, reports.NewReport{URL: site.URL + "/alice", Wait: &zero})
	if err != nil {
		t.Fatal(err)
	}
	done := waitUntil(40*time.Second, func() bool {
		r, err := store.Report(ctx, alice, created.ID)
		return err == nil && r.Status.Finished()
	})
	pages, at := site.served()
	pos := slices.Index(pages, "/alice")
	if !done || pos < 0 {
		t.Fatalf("Alice's report not analysed %s after she asked (%d of Bob's analyses meanwhile)", time.Since(asked).Round(time.Second), len(pages)-len(before))
	}
	if r, _ := store.Report(ctx, alice, created.ID); r.Status != report.StatusGenerated {
		t.Errorf("Alice's report = %s (%s), want generated", r.Status, r.Failure)
	}
	// Bob's analyses that started after Alice asked and before hers: at
	// most the one under way and one more turn of his.
	if bobFirst := pos - len(before); bobFirst > 2 {
		t.Errorf("%d of Bob's analyses ran after Alice asked and before hers (%s), want at most 2", bobFirst, at[pos].Sub(asked).Round(time.Millisecond))
	}
	// Politeness: in any stretch of time the site saw at most the burst
	// plus one analysis per interval.
	for i := range at {
		for j := i + 1; j < len(at); j++ {
			if allowed := limit.Requests + int(at[j].Sub(at[i])/limit.Interval()); j-i+1 > allowed {
				t.Fatalf("the site served %d analyses in %s, more than the throttle's %d", j-i+1, at[j].Sub(at[i]), allowed)
			}
		}
	}
	t.Logf("Alice's page %s after she asked, %d of Bob's before it; %d pages in %s", at[pos].Sub(asked).Round(time.Millisecond), pos-len(before), len(pages), time.Since(start).Round(time.Second))
}
