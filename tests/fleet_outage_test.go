package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fleetReadPaths are the public reads of the fleet's load: PIN lookups and
// nearby queries of the test dataset.
var fleetReadPaths = []string{
	"/api/v1/pincodes/800001", "/api/v1/pincodes/226001", "/api/v1/pincodes/400001",
	"/api/v1/pincodes/700001", "/api/v1/pincodes/nearby?latitude=25.6&longitude=85.2&limit=5",
	"/api/v1/pincodes/226002",
}

// fleetReads counts the answers to public reads in one phase of a test.
type fleetReads struct {
	ok, failed atomic.Int64
	mu         sync.Mutex
	statuses   map[int]int // the non-200 answers (0: no answer)
	slowest    time.Duration
}

func (f *fleetReads) add(status int, took time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.slowest = max(f.slowest, took)
	if status == 200 {
		f.ok.Add(1)
		return
	}
	f.failed.Add(1)
	if f.statuses == nil {
		f.statuses = map[int]int{}
	}
	f.statuses[status]++
}

func (f *fleetReads) String() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	ok, failed := f.ok.Load(), f.failed.Load()
	return fmt.Sprintf("%d/%d reads 200 (%.3f %%), failures %v, slowest %v", ok, ok+failed,
		100*float64(ok)/float64(max(ok+failed, 1)), f.statuses, f.slowest.Round(time.Millisecond))
}

// wantReads fails the test unless at least 99.9 % of f's reads answered
// 200 (issue 40's target for the fleet through a database fault).
func wantReads(t *testing.T, phase string, f *fleetReads) {
	t.Helper()
	ok, failed := f.ok.Load(), f.failed.Load()
	t.Logf("%s: %v", phase, f)
	if ok == 0 || float64(ok) < 0.999*float64(ok+failed) {
		t.Errorf("%s: %v; want at least 99.9 %% 200 through the load balancer", phase, f)
	}
}

// fleetWrite is one write's outcome during a fault.
type fleetWrite struct {
	status     int
	retryAfter string
	code       string
	took       time.Duration
}

// writeOnce posts a login of an unknown user (a write path: it needs the
// database) to base and reports the outcome.
func writeOnce(base string) fleetWrite {
	client := http.Client{Timeout: time.Minute}
	start := time.Now()
	resp, err := client.Post(base+"/api/v1/login", "application/json", strings.NewReader(loginBody))
	if err != nil {
		return fleetWrite{took: time.Since(start)}
	}
	defer resp.Body.Close()
	var body struct {
		Code string `json:"code"`
	}
	b, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(b, &body)
	return fleetWrite{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After"), code: body.Code, took: time.Since(start)}
}

// TestFleetThroughDatabaseFaults runs two instances on one PostgreSQL
// behind a stand-in of deploy/'s HAProxy (its health checks read from
// haproxy.cfg) under a steady read load, then pauses the database for
// 30 s and afterwards restarts it (issue 40, targets 1 to 3):
//   - at least 99.9 % of the public reads answer 200 through the load
//     balancer during each fault (the instances serve them from memory,
//     and /readyz/reads keeps them in rotation);
//   - writes meanwhile answer 503 with Retry-After in the envelope, each
//     within the request's store deadline plus a margin (the target is
//     0.5 s; the bound asserted is generous so that a busy machine does
//     not fail the test, and the figures are logged);
//   - writes succeed again once the database answers (the time it takes
//     is logged: the target is 2 s; the bound asserted is generous).
func TestFleetThroughDatabaseFaults(t *testing.T) {
	const dbTimeout = 3 * time.Second
	c, dbURL := outageDatabase(t, nil)
	bin := buildPinsight(t)
	a := outageInstance(t, bin, dbURL, "/readyz", dbTimeout)
	b := outageInstance(t, bin, dbURL, "/readyz", dbTimeout)
	lb := httptest.NewServer(newLBStandIn(t, readLBRules(t), a, b))
	t.Cleanup(lb.Close)
	if w := writeOnce(lb.URL); w.status != 401 {
		t.Fatalf("login of an unknown user with the database up = %+v, want 401", w)
	}

	var phase atomic.Pointer[fleetReads]
	phase.Store(&fleetReads{})
	stop := make(chan struct{})
	var readers sync.WaitGroup
	for r := range 4 {
		readers.Go(func() {
			client := http.Client{Timeout: 30 * time.Second}
			for i := r; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				start := time.Now()
				status := 0
				if resp, err := client.Get(lb.URL + fleetReadPaths[i%len(fleetReadPaths)]); err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					status = resp.StatusCode
				}
				phase.Load().add(status, time.Since(start))
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
	defer func() { close(stop); readers.Wait() }()
	time.Sleep(3 * time.Second)
	wantReads(t, "before the faults", phase.Load())

	// writes polls writes through the load balancer until done is closed,
	// then checks each: 401 (the database answered) or 503 with
	// Retry-After in the envelope, within the deadline's bound.
	writes := func(fault string, done <-chan struct{}) {
		var outcomes []fleetWrite
		for {
			select {
			case <-done:
			default:
				outcomes = append(outcomes, writeOnce(lb.URL))
				time.Sleep(200 * time.Millisecond)
				continue
			}
			break
		}
		var failed []time.Duration
		for _, w := range outcomes {
			switch {
			case w.status == 401:
			case w.status == 503 && w.retryAfter != "" && w.code == "unavailable":
				failed = append(failed, w.took)
			default:
				t.Errorf("%s: a write answered %+v; want 401, or 503 with Retry-After and code unavailable", fault, w)
			}
			if bound := dbTimeout + 10*time.Second; w.took > bound {
				t.Errorf("%s: a write took %v (status %d); want at most %v (deadline %v; target: deadline + 0.5 s)", fault, w.took, w.status, bound, dbTimeout)
			}
		}
		sort.Slice(failed, func(i, j int) bool { return failed[i] < failed[j] })
		if len(failed) > 0 {
			t.Logf("%s: %d writes, %d answered 503; the slowest 503 took %v, the median %v (deadline %v)", fault, len(outcomes), len(failed),
				failed[len(failed)-1].Round(time.Millisecond), failed[len(failed)/2].Round(time.Millisecond), dbTimeout)
		}
	}
	// recovered waits for writes to succeed again and logs how long it took.
	recovered := func(fault string, back time.Time) {
		waitFor(t, "writes after "+fault, 2*time.Minute, func() bool { return writeOnce(lb.URL).status == 401 })
		t.Logf("%s: writes succeeded again %v after the database was back", fault, time.Since(back).Round(time.Millisecond))
	}

	// A 30 s pause: connections hang rather than fail.
	paused := &fleetReads{}
	phase.Store(paused)
	unpause := pauseContainer(t, c)
	done := make(chan struct{})
	go func() { time.Sleep(30 * time.Second); close(done) }()
	writes("pause", done)
	unpause()
	back := time.Now()
	recovered("pause", back)
	wantReads(t, "30 s database pause", paused)

	// A restart: connections fail, then the database starts afresh.
	restarting := &fleetReads{}
	phase.Store(restarting)
	done = make(chan struct{})
	ctx := context.Background()
	go func() {
		defer close(done)
		stopTimeout := 5 * time.Second
		if err := c.Stop(ctx, &stopTimeout); err != nil {
			t.Error(err)
			return
		}
		if err := c.Start(ctx); err != nil {
			t.Error(err)
		}
	}()
	writes("restart", done)
	recovered("restart", time.Now())
	wantReads(t, "database restart", restarting)
}
