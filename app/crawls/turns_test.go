package crawls_test

import (
	"context"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/domain/crawl"
)

// Bob and Alice are two users crawling the same host.
const (
	bob   int64 = 1
	alice int64 = 2
)

// small serves /alice linking to /alice/1 and /alice/2, and 404 elsewhere
// but for fallback.
func small(fallback func(*site, http.ResponseWriter, *http.Request)) func(*site, http.ResponseWriter, *http.Request) {
	return func(s *site, w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/alice":
			page(w, "Alice", "/alice/1", "/alice/2")
		case "/alice/1", "/alice/2":
			page(w, "Alice "+strings.TrimPrefix(r.URL.Path, "/alice/"), "/alice")
		default:
			if fallback != nil {
				fallback(s, w, r)
				return
			}
			http.NotFound(w, r)
		}
	}
}

// firstPage waits up to d for crawl id to record a page and says how long
// that took from start, and whether other was still running then.
func (e env) firstPage(t *testing.T, id, other int64, start time.Time, d time.Duration) (time.Duration, bool) {
	t.Helper()
	deadline := start.Add(d)
	for {
		c, err := e.store.CrawlByID(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if c.Progress.Crawled > 0 {
			took := time.Since(start)
			o, err := e.store.CrawlByID(context.Background(), other)
			if err != nil {
				t.Fatal(err)
			}
			return took, !o.Status.Final()
		}
		if time.Now().After(deadline) {
			t.Fatalf("crawl %d still %s with no page after %s", id, c.Status, d)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestCrawlsOfTwoPortsRunAtOnce: the politeness unit is the origin, so
// Bob's slow crawl of one port of 127.0.0.1 does not hold Alice's crawl of
// another port of it: Alice's crawl gets its pages (and ends) while Bob's
// runs.
func TestCrawlsOfTwoPortsRunAtOnce(t *testing.T) {
	slow := newSite(t, endless(0))
	other := newSite(t, small(nil))
	e := newEnv(t, crawls.Config{ActiveLimit: -1, DailyPages: -1}, slow.Server, other.Server)
	e.start(t)
	ctx := context.Background()
	b, err := e.crawls.Create(ctx, bob, crawl.Params{URL: slow.URL + "/p/0", MaxPages: ptr(9000), MaxDepth: ptr(100), DelayMS: ptr(200), Concurrency: ptr(1)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e.firstPage(t, b.ID, b.ID, time.Now(), 10*time.Second) // Bob holds his site
	start := time.Now()
	a, err := e.crawls.Create(ctx, alice, crawl.Params{URL: other.URL + "/alice", MaxPages: ptr(10)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	took, bobRunning := e.firstPage(t, a.ID, b.ID, start, 30*time.Second)
	t.Logf("Alice's first page on another port after %s", took)
	if !bobRunning {
		t.Fatalf("Bob's crawl ended before Alice's got a page")
	}
	if got := e.waitFinal(t, a.ID, 20*time.Second); got.Status != crawl.StatusFinished || got.Progress.Crawled != 3 {
		t.Errorf("Alice's crawl %s with %+v, want finished with 3 pages", got.Status, got.Progress)
	}
	if _, err := e.crawls.Cancel(ctx, bob, b.ID); err != nil {
		t.Fatal(err)
	}
}

// TestCrawlsShareASiteInTurns: Bob's slow crawl holds the origin; Alice's
// crawl of the same origin gets its first page within about one slice
// (short here), while Bob's still runs, and both finish: they take turns.
func TestCrawlsShareASiteInTurns(t *testing.T) {
	const slice = 500 * time.Millisecond
	s := newSite(t, small(endless(0)))
	e := newEnv(t, crawls.Config{ActiveLimit: -1, DailyPages: -1, Slice: slice, SiteRetry: 100 * time.Millisecond, Renew: 100 * time.Millisecond}, s.Server)
	e.start(t)
	ctx := context.Background()
	b, err := e.crawls.Create(ctx, bob, crawl.Params{URL: s.URL + "/p/0", MaxPages: ptr(60), MaxDepth: ptr(100), DelayMS: ptr(150), Concurrency: ptr(1)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e.firstPage(t, b.ID, b.ID, time.Now(), 10*time.Second)
	start := time.Now()
	a, err := e.crawls.Create(ctx, alice, crawl.Params{URL: s.URL + "/alice", MaxPages: ptr(10)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	took, bobRunning := e.firstPage(t, a.ID, b.ID, start, 60*time.Second)
	t.Logf("Alice's first page on Bob's origin after %s (slice %s)", took, slice)
	if !bobRunning {
		t.Fatalf("Bob's crawl ended before Alice's got a page: no turns")
	}
	if took > 5*time.Second {
		t.Errorf("Alice's first page came after %s, want within about one slice (%s)", took, slice)
	}
	if got := e.waitFinal(t, a.ID, 30*time.Second); got.Status != crawl.StatusFinished || got.Progress.Crawled != 3 {
		t.Errorf("Alice's crawl %s with %+v, want finished with 3 pages", got.Status, got.Progress)
	}
	if got := e.waitFinal(t, b.ID, 60*time.Second); got.Status != crawl.StatusFinished || got.Progress.Crawled != 60 {
		t.Errorf("Bob's crawl %s with %+v, want finished with its 60 pages", got.Status, got.Progress)
	}
}

// TestMeasureTurns measures, with the default slice and retry, the time
// to Alice's first page while Bob's slow crawl (delay_ms 1000) holds her
// origin, and on another port of the same host. Run it with
// PINSIGHT_MEASURE_TURNS=1 (it takes about half a minute).
func TestMeasureTurns(t *testing.T) {
	if os.Getenv("PINSIGHT_MEASURE_TURNS") == "" {
		t.Skip("set PINSIGHT_MEASURE_TURNS=1 to measure")
	}
	s := newSite(t, small(endless(0)))
	other := newSite(t, small(nil))
	e := newEnv(t, crawls.Config{ActiveLimit: -1, DailyPages: -1}, s.Server, other.Server)
	e.start(t)
	ctx := context.Background()
	b, err := e.crawls.Create(ctx, bob, crawl.Params{URL: s.URL + "/p/0", MaxPages: ptr(9000), MaxDepth: ptr(100), DelayMS: ptr(1000), Concurrency: ptr(1)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e.firstPage(t, b.ID, b.ID, time.Now(), 10*time.Second)
	time.Sleep(2 * time.Second) // Alice asks midway through Bob's slice
	for _, u := range []string{other.URL + "/alice", s.URL + "/alice"} {
		start := time.Now()
		a, err := e.crawls.Create(ctx, alice, crawl.Params{URL: u, MaxPages: ptr(10)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		took, running := e.firstPage(t, a.ID, b.ID, start, 2*time.Minute)
		t.Logf("Alice's first page of %s after %s (Bob's crawl running: %v)", u, took.Round(10*time.Millisecond), running)
		e.waitFinal(t, a.ID, time.Minute)
	}
}

// TestCrawlWorkerTakesTurns: with one crawl worker, busy with Bob's only
// (slow) crawl, Alice's crawl of another site gets its first page within
// about a slice while Bob's still runs: Bob's run gives the worker up at
// the end of its slice. (The queue's order, the job waiting longest
// first, already turned the worker over at each slice before
// crawl.Share.GivesWorker: this guards the behaviour.)
func TestCrawlWorkerTakesTurns(t *testing.T) {
	const slice = 500 * time.Millisecond
	slow := newSite(t, endless(0))
	other := newSite(t, small(nil))
	e := newEnvWorkers(t, crawls.Config{ActiveLimit: -1, DailyPages: -1, Slice: slice, SiteRetry: 100 * time.Millisecond, Renew: 100 * time.Millisecond},
		fetch.Config{AllowTargets: []string{strings.TrimPrefix(slow.URL, "http://"), strings.TrimPrefix(other.URL, "http://")}, Timeout: 5 * time.Second}, 1)
	e.start(t)
	ctx := context.Background()
	b, err := e.crawls.Create(ctx, bob, crawl.Params{URL: slow.URL + "/p/0", MaxPages: ptr(9000), MaxDepth: ptr(100), DelayMS: ptr(100), Concurrency: ptr(1)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e.firstPage(t, b.ID, b.ID, time.Now(), 10*time.Second)
	start := time.Now()
	a, err := e.crawls.Create(ctx, alice, crawl.Params{URL: other.URL + "/alice", MaxPages: ptr(10)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	took, bobRunning := e.firstPage(t, a.ID, b.ID, start, 30*time.Second)
	t.Logf("Alice's first page with the only worker busy after %s (slice %s)", took, slice)
	if !bobRunning || took > 10*time.Second {
		t.Errorf("Alice's first page after %s (Bob's crawl running: %v), want within about a slice while Bob's runs", took, bobRunning)
	}
	if got := e.waitFinal(t, a.ID, 20*time.Second); got.Status != crawl.StatusFinished {
		t.Errorf("Alice's crawl %s, want finished", got.Status)
	}
	if got, _ := e.store.CrawlByID(ctx, b.ID); got.Status != crawl.StatusRunning {
		t.Errorf("Bob's crawl %s, want still running (it goes on in turn)", got.Status)
	}
	if _, err := e.crawls.Cancel(ctx, bob, b.ID); err != nil {
		t.Fatal(err)
	}
}
