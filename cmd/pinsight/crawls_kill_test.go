package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pinsight/pinsight/tests/crawlsite"
)

// killHelperEnv carries the arguments of the server TestCrawlKillHelper
// runs in a child process.
const killHelperEnv = "PINSIGHT_KILL_HELPER_ARGS"

// TestCrawlKillHelper is the server process of TestCrawlSurvivesKill: it
// runs pinsight with the arguments of killHelperEnv until it is killed,
// and skips when that is unset.
func TestCrawlKillHelper(t *testing.T) {
	args := os.Getenv(killHelperEnv)
	if args == "" {
		t.Skip("the child process of TestCrawlSurvivesKill")
	}
	root := newRoot()
	root.SetArgs(strings.Split(args, "\n"))
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// serverProcess is a pinsight server running in a child process.
type serverProcess struct {
	cmd  *exec.Cmd
	addr string
}

// startServer starts the server in a child process (this test binary
// running TestCrawlKillHelper) with args, and waits for its address.
func startServer(t *testing.T, args ...string) *serverProcess {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrawlKillHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), killHelperEnv+"="+strings.Join(args, "\n"))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &serverProcess{cmd: cmd}
	t.Cleanup(func() { p.kill(t) })
	lines := bufio.NewScanner(stderr)
	for p.addr == "" && lines.Scan() {
		var l struct{ Msg, Addr string }
		if json.Unmarshal(lines.Bytes(), &l) == nil && l.Msg == "listening" {
			p.addr = l.Addr
		}
	}
	go func() { _, _ = io.Copy(io.Discard, stderr) }()
	if p.addr == "" {
		t.Fatalf("the server never said where it listens (%v)", lines.Err())
	}
	return p
}

// kill sends SIGKILL and waits for the process to end.
func (p *serverProcess) kill(t *testing.T) {
	if p.cmd.ProcessState != nil {
		return
	}
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Logf("kill: %v", err)
	}
	_ = p.cmd.Wait()
}

// hitCounter counts the requests a handler gets, by request URI.
type hitCounter struct {
	mu   sync.Mutex
	hits map[string]int
	next http.Handler
}

func (h *hitCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.hits[r.URL.RequestURI()]++
	h.mu.Unlock()
	h.next.ServeHTTP(w, r)
}

// snapshot copies the counts.
func (h *hitCounter) snapshot() map[string]int {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make(map[string]int, len(h.hits))
	for k, v := range h.hits {
		out[k] = v
	}
	return out
}

// recordedURLs lists every recorded page of crawl id through the API.
func (c *apiClient) recordedURLs(id int64) []string {
	c.t.Helper()
	var out []string
	for page := 1; ; page++ {
		var env struct {
			Data struct {
				Pages []struct{ URL string }
				Meta  struct{ Total int }
			}
		}
		if st, raw := c.call(http.MethodGet, "/api/v1/crawls/"+itoa(id)+"/pages?per_page=100&page="+itoa(int64(page)), nil, &env); st != http.StatusOK {
			c.t.Fatalf("pages = %d %.300s", st, raw)
		}
		for _, p := range env.Data.Pages {
			out = append(out, p.URL)
		}
		if len(env.Data.Pages) == 0 || len(out) >= env.Data.Meta.Total {
			return out
		}
	}
}

// waitCrawl polls crawl id until done says so or the deadline passes.
func (c *apiClient) waitCrawl(id int64, within time.Duration, what string, done func(crawlJSON) bool) crawlJSON {
	c.t.Helper()
	deadline := time.Now().Add(within)
	for {
		cr := c.crawl(id)
		if done(cr) {
			return cr
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("crawl %d: %s not reached within %s: %+v", id, what, within, cr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestCrawlSurvivesKill runs the server on SQLite in a child process,
// crawling tests/crawlsite served slowly; the process is killed with
// SIGKILL mid-crawl and started again on the same file. The crawl resumes
// and finishes with exactly the planted issue counts, and no page recorded
// before the kill is requested from the site again. Then a cancel of a
// running crawl through the API ends it within 5 s.
func TestCrawlSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts a server: about a minute")
	}
	fixture := crawlsite.New(crawlsite.Options{Pages: 400, Latency: 30 * time.Millisecond})
	counter := &hitCounter{hits: map[string]int{}, next: fixture}
	site := httptest.NewServer(counter)
	t.Cleanup(site.Close)
	args := []string{"serve", "--addr", "127.0.0.1:0", "--database-url", "sqlite:" + filepath.Join(t.TempDir(), "p.db"),
		"--allow-target", hostOf(t, site.URL), "--fetch-timeout", "2s", "--crawl-daily-pages", "0"}

	first := startServer(t, args...)
	c := newUser(t, "http://"+first.addr, "kill@example.com")
	var created struct{ Data crawlJSON }
	if st, raw := c.call(http.MethodPost, "/api/v1/crawls", map[string]any{"url": site.URL + crawlsite.StartPath, "max_pages": 2000, "concurrency": 2}, &created); st != http.StatusAccepted {
		t.Fatalf("create crawl = %d %s", st, raw)
	}
	id := created.Data.ID
	c.waitCrawl(id, 3*time.Minute, "30 pages crawled", func(cr crawlJSON) bool {
		if cr.Status != "queued" && cr.Status != "running" {
			t.Fatalf("crawl ended before the kill: %+v", cr)
		}
		return cr.Pages.Crawled >= 30
	})
	before := c.recordedURLs(id)
	first.kill(t)
	atKill := counter.snapshot()
	if len(before) >= fixture.Stats().Records {
		t.Fatalf("every page was recorded before the kill (%d): the kill came too late", len(before))
	}
	t.Logf("killed with %d of %d pages recorded", len(before), fixture.Stats().Records)

	second := startServer(t, args...)
	c.base = "http://" + second.addr
	cr := c.waitCrawl(id, 5*time.Minute, "the end", func(cr crawlJSON) bool { return cr.Status != "queued" && cr.Status != "running" })
	if cr.Status != "finished" {
		t.Fatalf("crawl after the restart = %+v, want finished", cr)
	}
	checkFixtureCounts(t, cr, fixture)
	after := counter.snapshot()
	again, seen := 0, 0
	for _, raw := range before {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		k := u.RequestURI()
		if atKill[k] > 0 {
			seen++
		}
		if after[k] != atKill[k] {
			again++
			t.Errorf("%s, recorded before the kill, was requested %d more times after the restart", k, after[k]-atKill[k])
		}
	}
	if seen < len(before)-fixture.Stats().Blocked { // the site counts requests by the URI the crawler records
		t.Errorf("only %d of the %d pages recorded before the kill were counted by the site", seen, len(before))
	}
	t.Logf("%d pages recorded before the kill, %d of them requested again", len(before), again)

	// A running crawl stops soon after its cancel, long before its end: the
	// bound, 30 s, is six times the 5 s target (it takes well under a
	// second, logged), for a loaded machine.
	if st, raw := c.callPatient(http.MethodPost, "/api/v1/crawls", map[string]any{"url": site.URL + crawlsite.StartPath, "max_pages": 2000}, &created); st != http.StatusAccepted {
		t.Fatalf("second crawl = %d %s", st, raw)
	}
	next := created.Data.ID
	c.waitCrawl(next, 3*time.Minute, "running with pages crawled", func(cr crawlJSON) bool { return cr.Status == "running" && cr.Pages.Crawled > 5 })
	asked := time.Now()
	if st, raw := c.callPatient(http.MethodPost, "/api/v1/crawls/"+itoa(next)+"/cancel", nil, nil); st != http.StatusOK {
		t.Fatalf("cancel = %d %s", st, raw)
	}
	end := c.waitCrawl(next, 30*time.Second, "cancelled", func(cr crawlJSON) bool { return cr.Status != "running" })
	if end.Status != "cancelled" || end.Pages.Crawled >= fixture.Stats().Records-fixture.Stats().Blocked {
		t.Errorf("cancelled crawl = %+v, want cancelled before the end", end)
	}
	t.Logf("a running crawl was cancelled %s after its cancel", time.Since(asked).Round(time.Millisecond))
}
