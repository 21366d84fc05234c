package crawls_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/ports"
)

// site is a loopback fixture site counting the requests of each path.
type site struct {
	*httptest.Server
	mu     sync.Mutex
	hits   map[string]int
	secret map[string]string // the X-Secret header each path last got
}

func newSite(t *testing.T, h func(s *site, w http.ResponseWriter, r *http.Request)) *site {
	t.Helper()
	s := &site{hits: map[string]int{}, secret: map[string]string{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		s.secret[r.URL.Path] = r.Header.Get("X-Secret")
		s.mu.Unlock()
		h(s, w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) hitsOf(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

func page(w http.ResponseWriter, title string, links ...string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><html lang=en><head><title>%s</title><meta name=description content=\"About %s\"></head><body><h1>%s</h1><p>Some words about %s and more.</p>", title, title, title, title)
	for _, l := range links {
		fmt.Fprintf(&b, "<a href=%q>%s</a> ", l, l)
	}
	b.WriteString("</body></html>")
	_, _ = w.Write([]byte(b.String()))
}

// env is a crawl use case over memory stores and the real fetcher,
// allowed to reach the given loopback servers only.
type env struct {
	crawls *crawls.Crawls
	store  *memory.CrawlStore
	jobs   *memory.Jobs
}

func newEnv(t *testing.T, cfg crawls.Config, allow ...*httptest.Server) env {
	t.Helper()
	var targets []string
	for _, s := range allow {
		targets = append(targets, strings.TrimPrefix(s.URL, "http://"))
	}
	return newEnvFetching(t, cfg, fetch.Config{AllowTargets: targets, Timeout: 5 * time.Second})
}

// newEnvFetching is newEnv with the real fetcher configured by fc.
func newEnvFetching(t *testing.T, cfg crawls.Config, fc fetch.Config) env {
	t.Helper()
	return newEnvWorkers(t, cfg, fc, 0)
}

// newEnvWorkers is newEnvFetching with that many crawl workers (0: the
// default).
func newEnvWorkers(t *testing.T, cfg crawls.Config, fc fetch.Config, workers int) env {
	t.Helper()
	f, err := fetch.New(fc)
	if err != nil {
		t.Fatal(err)
	}
	reports := memory.NewReportStore()
	store := memory.NewCrawlStore(reports)
	jobs := memory.NewJobs(reports, ports.JobSettings{CrawlWorkers: workers})
	jobs.Crawls(store)
	cfg.Workers = workers
	pw := accounts.NewPasswords(accounts.PasswordParams{Time: 1, MemoryKiB: 8 * 1024, Threads: 1}, accounts.PasswordLimits{})
	return env{crawls: crawls.New(store, jobs, f, pw, cfg), store: store, jobs: jobs}
}

func (e env) start(t *testing.T) {
	t.Helper()
	if err := e.jobs.Start(context.Background(), func(context.Context, ports.AnalysisJob) error { return nil }); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = e.jobs.Stop(ctx)
	})
}

// waitFinal waits up to d for crawl id (of any user) to be final.
func (e env) waitFinal(t *testing.T, id int64, d time.Duration) crawl.Crawl {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		c, err := e.store.CrawlByID(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if c.Status.Final() {
			return c
		}
		if time.Now().After(deadline) {
			t.Fatalf("crawl %d still %s after %s: %+v", id, c.Status, d, c.Progress)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func ptr[T any](v T) *T { return &v }

func TestCrawlFixtureSite(t *testing.T) {
	elsewhere := newSite(t, func(_ *site, w http.ResponseWriter, _ *http.Request) { page(w, "Elsewhere") })
	var s *site
	s = newSite(t, func(_ *site, w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nDisallow: /private\nSitemap: %s/sitemap.xml\n", s.URL)
		case "/sitemap.xml":
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprintf(w, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s/</loc></url><url><loc>%s/orphan</loc></url></urlset>`, s.URL, s.URL)
		case "/":
			page(w, "Home", "/a", "/b", "/missing", "/redir", "/private", "/away", elsewhere.URL+"/")
		case "/a", "/b":
			page(w, "Twin", "/", "/a", "/b")
		case "/orphan":
			page(w, "Orphan", "/")
		case "/redir":
			http.Redirect(w, r, "/a", http.StatusMovedPermanently)
		case "/away":
			http.Redirect(w, r, elsewhere.URL+"/landing", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	})
	e := newEnv(t, crawls.Config{}, s.Server, elsewhere.Server)
	e.start(t)
	c, err := e.crawls.Create(context.Background(), 1, crawl.Params{URL: s.URL + "/", Concurrency: ptr(2),
		Headers: map[string]string{"X-Secret": "s3cret"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c = e.waitFinal(t, c.ID, 2*time.Minute)
	if c.Status != crawl.StatusFinished {
		t.Fatalf("status = %s (%s)", c.Status, c.Failure)
	}
	counts := map[crawl.IssueType]int{}
	for _, tc := range c.Summary.Issues {
		counts[tc.Type] = tc.Count
	}
	want := map[crawl.IssueType]int{crawl.BrokenLink: 1, crawl.BlockedByRobots: 1, crawl.OrphanPage: 1, crawl.DuplicateTitle: 2}
	for typ, n := range want {
		if counts[typ] != n {
			t.Errorf("%s issues = %d, want %d (all: %+v)", typ, counts[typ], n, c.Summary.Issues)
		}
	}
	// /, /a, /b, /orphan, /missing, /redir, /away crawled; /private blocked.
	if c.Progress.Crawled != 7 || c.Progress.Blocked != 1 || c.Progress.Failed != 1 {
		t.Errorf("progress = %+v, want 7 crawled, 1 blocked, 1 failed", c.Progress)
	}
	if c.Score <= 0 || c.Rating == "" || len(c.Summary.AI) == 0 || len(c.Summary.Checks) == 0 {
		t.Errorf("score %d, rating %q, AI %d, checks %d: want all set", c.Score, c.Rating, len(c.Summary.AI), len(c.Summary.Checks))
	}
	for _, p := range []string{"/", "/a", "/b", "/orphan", "/missing", "/redir", "/away"} {
		want := 1
		if p == "/a" && s.hitsOf(p) == 2 {
			want = 2 // /redir's last hop and /a itself, when both were in flight at once
		}
		if n := s.hitsOf(p); n != want {
			t.Errorf("%s fetched %d times, want %d", p, n, want)
		}
		s.mu.Lock()
		if got := s.secret[p]; got != "s3cret" {
			t.Errorf("%s got X-Secret %q, want the crawl's header", p, got)
		}
		s.mu.Unlock()
	}
	if n := s.hitsOf("/private"); n != 0 {
		t.Errorf("/private (disallowed) fetched %d times", n)
	}
	elsewhere.mu.Lock()
	defer elsewhere.mu.Unlock()
	if len(elsewhere.hits) != 0 {
		t.Errorf("another host got requests %v: nothing off the site is crawled, and no header goes there", elsewhere.hits)
	}
}

// endless serves /p/N linking to /p/N+1 and /p/N+2, each after a pause.
func endless(pause time.Duration) func(*site, http.ResponseWriter, *http.Request) {
	return func(_ *site, w http.ResponseWriter, r *http.Request) {
		var n int
		if _, err := fmt.Sscanf(r.URL.Path, "/p/%d", &n); err != nil && r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		time.Sleep(pause)
		page(w, fmt.Sprintf("Page %d", n), fmt.Sprintf("/p/%d", n+1), fmt.Sprintf("/p/%d", n+2))
	}
}

func TestCrawlCancelStopsWithinFiveSeconds(t *testing.T) {
	s := newSite(t, endless(200*time.Millisecond))
	e := newEnv(t, crawls.Config{Renew: 200 * time.Millisecond}, s.Server)
	e.start(t)
	c, err := e.crawls.Create(context.Background(), 1, crawl.Params{URL: s.URL + "/", MaxPages: ptr(1000)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for {
		cur, _ := e.crawls.Get(context.Background(), 1, c.ID)
		if cur.Progress.Crawled >= 3 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := e.crawls.Cancel(context.Background(), 1, c.ID); err != nil {
		t.Fatal(err)
	}
	c = e.waitFinal(t, c.ID, 2*time.Minute)
	if c.Status != crawl.StatusCancelled || c.Progress.Crawled < 3 {
		t.Errorf("after cancel: %s with %+v, want cancelled keeping the pages found", c.Status, c.Progress)
	}
}

func TestCrawlResumesAfterCrash(t *testing.T) {
	s := newSite(t, endless(20*time.Millisecond))
	cfg := crawls.Config{Lease: 500 * time.Millisecond, Renew: 100 * time.Millisecond}
	first := newEnv(t, cfg, s.Server)
	c, jobID, err := first.jobs.CreateCrawlWithJob(context.Background(), crawl.Crawl{UserID: 1, Site: "127.0.0.1",
		Settings: mustSettings(t, crawl.Params{URL: s.URL + "/", MaxPages: ptr(40), MaxDepth: ptr(100)}), CreatedAt: time.Now()}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	job := ports.CrawlJob{ID: jobID, CrawlID: c.ID, UserID: 1, Attempt: 1}
	// The first runner dies midway: its context ends, nothing is finished.
	first.runUntilCrawled(t, job, 10)
	before, err := first.store.CrawlByID(context.Background(), c.ID)
	if err != nil || before.Status != crawl.StatusRunning {
		t.Fatalf("after the crash: %+v, %v; want running", before.Status, err)
	}
	fetched := map[string]bool{}
	err = first.store.EachPage(context.Background(), c.ID, func(p ports.CrawlPage) error {
		fetched[strings.TrimPrefix(p.Page.URL, s.URL)] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	hitsBefore := map[string]int{}
	for k, v := range s.hits {
		hitsBefore[k] = v
	}
	s.mu.Unlock()
	// A second runner (another process) takes the job over once the
	// hold expires, as the queue runs it again.
	second := crawls.New(first.store, first.jobs, mustFetcher(t, s.Server), nil, cfg)
	if !runToEnd(t, second, job) {
		t.Error("the second runner did not wait for the crashed run's hold to expire")
	}
	done, _ := first.store.CrawlByID(context.Background(), c.ID)
	if done.Status != crawl.StatusFinished || done.Progress.Crawled != 40 {
		t.Errorf("resumed crawl: %s, %+v; want finished with 40 pages", done.Status, done.Progress)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for path := range fetched {
		if s.hits[path] != hitsBefore[path] {
			t.Errorf("%s, recorded before the crash, fetched again (%d then %d)", path, hitsBefore[path], s.hits[path])
		}
	}
}

// runUntilCrawled runs job until crawled pages of its crawl are recorded,
// then ends the run's context: the runner dies midway, nothing finished.
func (e env) runUntilCrawled(t *testing.T, job ports.CrawlJob, crawled int) {
	t.Helper()
	ctx, crash := context.WithCancel(context.Background())
	defer crash()
	go func() {
		for ctx.Err() == nil {
			cur, _ := e.store.CrawlByID(context.Background(), job.CrawlID)
			if cur.Progress.Crawled >= crawled {
				crash()
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	_ = e.crawls.Run(ctx, job)
}

// runToEnd runs job again and again, as the queue does, while it snoozes
// (for at most 2 min); snoozedForHold tells that a run found the site held
// (by a run that died, until its hold expired).
func runToEnd(t *testing.T, cs *crawls.Crawls, job ports.CrawlJob) (snoozedForHold bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		err := cs.Run(context.Background(), job)
		var snooze *ports.SnoozeError
		if err == nil {
			return snoozedForHold
		}
		if !errors.As(err, &snooze) || time.Now().After(deadline) {
			t.Fatalf("run = %v", err)
		}
		snoozedForHold = snoozedForHold || strings.Contains(err.Error(), "holds the site")
		time.Sleep(50 * time.Millisecond)
	}
}

func mustSettings(t *testing.T, p crawl.Params) crawl.Settings {
	t.Helper()
	s, err := crawl.NewSettings(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustFetcher(t *testing.T, srv *httptest.Server) *fetch.Fetcher {
	t.Helper()
	f, err := fetch.New(fetch.Config{AllowTargets: []string{strings.TrimPrefix(srv.URL, "http://")}, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestCrawlSeedsAgainAfterCrashWhileReadingSitemaps: the walk begins while
// the sitemaps are read; a run that dies before they are in leaves the
// crawl unseeded, and the next run reads them again: the sitemap-only page
// is crawled, and nothing recorded before is fetched twice.
func TestCrawlSeedsAgainAfterCrashWhileReadingSitemaps(t *testing.T) {
	release := make(chan struct{})
	s := newSite(t, func(s *site, w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			page(w, "Home", "/a", "/b")
		case "/a", "/b":
			page(w, "Page "+r.URL.Path, "/")
		case "/orphan":
			page(w, "Orphan", "/")
		case "/sitemap.xml":
			select { // hangs until released, or the run ends
			case <-release:
			case <-r.Context().Done():
				return
			}
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%[1]s/</loc></url><url><loc>%[1]s/orphan</loc></url></urlset>`, s.URL)
		default:
			http.NotFound(w, r)
		}
	})
	cfg := crawls.Config{Lease: 500 * time.Millisecond, Renew: 100 * time.Millisecond}
	first := newEnv(t, cfg, s.Server)
	c, jobID, err := first.jobs.CreateCrawlWithJob(context.Background(), crawl.Crawl{UserID: 1, Site: "127.0.0.1",
		Settings: mustSettings(t, crawl.Params{URL: s.URL + "/"}), CreatedAt: time.Now()}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	job := ports.CrawlJob{ID: jobID, CrawlID: c.ID, UserID: 1, Attempt: 1}
	// The first run crawls the linked pages while the sitemap hangs, then dies.
	first.runUntilCrawled(t, job, 3)
	before, err := first.store.CrawlByID(context.Background(), c.ID)
	if err != nil || before.Status != crawl.StatusRunning || before.Seeded || before.Progress.Discovered != 3 {
		t.Fatalf("after the crash: %s, seeded %v, %+v, %v; want running, not seeded, 3 URLs", before.Status, before.Seeded, before.Progress, err)
	}
	close(release)
	second := crawls.New(first.store, first.jobs, mustFetcher(t, s.Server), nil, cfg)
	runToEnd(t, second, job)
	done, _ := first.store.CrawlByID(context.Background(), c.ID)
	if done.Status != crawl.StatusFinished || !done.Seeded || done.Progress.Crawled != 4 {
		t.Errorf("resumed crawl: %s, seeded %v, %+v; want finished, seeded, 4 pages", done.Status, done.Seeded, done.Progress)
	}
	orphans := 0
	for _, tc := range done.Summary.Issues {
		if tc.Type == crawl.OrphanPage {
			orphans = tc.Count
		}
	}
	if orphans != 1 {
		t.Errorf("orphan pages = %d, want 1 (/orphan, listed in the sitemap only)", orphans)
	}
	for _, path := range []string{"/", "/a", "/b", "/orphan"} {
		if n := s.hitsOf(path); n != 1 {
			t.Errorf("%s fetched %d times, want once", path, n)
		}
	}
}
