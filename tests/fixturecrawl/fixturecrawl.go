// Package fixturecrawl crawls the fixture site of tests/crawlsite with
// Pinsight's crawler (app/crawls, the real fetcher on loopback) over a
// given crawl store and queue, and checks that the crawl finds exactly
// the planted issues and records what the site's Stats promise. It is run
// on every store: memory and SQLite from app/crawls' tests, PostgreSQL
// from the container suite.
package fixturecrawl

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/tests/crawlsite"
)

// Pages is the size of the fixture site the suite crawls.
const Pages = 2000

// Env is what a crawl runs on: a crawl store, the queue of the same
// database, and a user of that database owning the crawls.
type Env struct {
	Store  ports.CrawlStore
	Queue  ports.CrawlQueue
	UserID int64
}

// Test crawls the fixture site to its end, then crawls it again with a
// first runner stopped midway and a second one finishing. newEnv returns
// an empty database's Env each time it is called.
func Test(t *testing.T, newEnv func(testing.TB) Env) {
	t.Run("counts", func(t *testing.T) {
		site := crawlsite.New(crawlsite.Options{Pages: Pages})
		srv := Serve(t, site)
		e := newEnv(t)
		c, job := Create(t, e, srv.URL, 8)
		cs := New(t, e, srv, crawls.Config{})
		RunToEnd(t, cs, job)
		Check(t, e, c.ID, srv, site)
	})
	t.Run("resume", func(t *testing.T) {
		site := crawlsite.New(crawlsite.Options{Pages: Pages})
		srv := Serve(t, site)
		e := newEnv(t)
		c, job := Create(t, e, srv.URL, 8)
		cfg := crawls.Config{Lease: 500 * time.Millisecond, Renew: 100 * time.Millisecond}
		first := New(t, e, srv, cfg)
		ctx, crash := context.WithCancel(context.Background())
		stopped := make(chan struct{})
		go func() {
			defer close(stopped)
			for ctx.Err() == nil {
				cur, err := e.Store.CrawlByID(context.Background(), c.ID)
				if err == nil && cur.Progress.Crawled >= Pages/3 {
					crash()
					return
				}
				time.Sleep(5 * time.Millisecond)
			}
		}()
		err := first.Run(ctx, job)
		crash()
		<-stopped
		var snooze *ports.SnoozeError
		if err != nil && !errors.Is(err, context.Canceled) && !errors.As(err, &snooze) {
			t.Fatalf("first run = %v", err)
		}
		mid, err := e.Store.CrawlByID(context.Background(), c.ID)
		if err != nil || mid.Status != crawl.StatusRunning {
			t.Fatalf("after the stop: %s, %v; want running", mid.Status, err)
		}
		if mid.Progress.Crawled >= site.Stats().Records-site.Stats().Blocked {
			t.Fatalf("the first run crawled everything (%+v) before it was stopped", mid.Progress)
		}
		recorded := map[string]bool{}
		if err := e.Store.EachPage(context.Background(), c.ID, func(p ports.CrawlPage) error {
			if !p.Page.BlockedByRobots {
				recorded[strings.TrimPrefix(p.Page.URL, srv.URL)] = true
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		before := srv.Hits()
		RunToEnd(t, New(t, e, srv, cfg), job)
		after := srv.Hits()
		again := 0
		for path := range recorded {
			if after[path] != before[path] {
				again++
				t.Errorf("%s, recorded before the stop, fetched again (%d, then %d)", path, before[path], after[path])
			}
		}
		Check(t, e, c.ID, srv, site)
		t.Logf("stopped after %d records; second run fetched %d of them again", len(recorded), again)
	})
}

// Server is the fixture site on loopback, counting the requests of each
// path (and query).
type Server struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int
}

// Serve serves site on loopback until the test ends.
func Serve(tb testing.TB, site http.Handler) *Server {
	s := &Server{hits: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.RequestURI()]++
		s.mu.Unlock()
		site.ServeHTTP(w, r)
	}))
	tb.Cleanup(s.Close)
	return s
}

// Hits are the requests so far, by path and query.
func (s *Server) Hits() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.hits))
	for k, v := range s.hits {
		out[k] = v
	}
	return out
}

// New returns the crawl use cases over e with the real fetcher, allowed
// to reach srv only.
func New(tb testing.TB, e Env, srv *Server, cfg crawls.Config) *crawls.Crawls {
	tb.Helper()
	f, err := fetch.New(fetch.Config{AllowTargets: []string{strings.TrimPrefix(srv.URL, "http://")}, Timeout: 10 * time.Second})
	if err != nil {
		tb.Fatal(err)
	}
	return crawls.New(e.Store, e.Queue, f, nil, cfg)
}

// Create queues a crawl of the whole site at srvURL (max_pages the
// largest) with concurrency requests in flight.
func Create(tb testing.TB, e Env, srvURL string, concurrency int) (crawl.Crawl, ports.CrawlJob) {
	tb.Helper()
	maxPages, depth := crawl.MaxMaxPages, 100
	s, err := crawl.NewSettings(crawl.Params{URL: srvURL + crawlsite.StartPath, MaxPages: &maxPages, MaxDepth: &depth, Concurrency: &concurrency})
	if err != nil {
		tb.Fatal(err)
	}
	c, jobID, err := e.Queue.CreateCrawlWithJob(context.Background(), crawl.Crawl{UserID: e.UserID, Site: "127.0.0.1", Settings: s, CreatedAt: time.Now()}, 0, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return c, ports.CrawlJob{ID: jobID, CrawlID: c.ID, UserID: e.UserID, Attempt: 1}
}

// RunToEnd runs job as the queue would, slice after slice, until it
// ends; a snooze (a slice over, or the site held by a stopped run whose
// hold has not expired yet) runs it again.
func RunToEnd(tb testing.TB, cs *crawls.Crawls, job ports.CrawlJob) {
	tb.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		err := cs.Run(context.Background(), job)
		if err == nil {
			return
		}
		var snooze *ports.SnoozeError
		if !errors.As(err, &snooze) || time.Now().After(deadline) {
			tb.Fatalf("run = %v", err)
		}
		if strings.Contains(err.Error(), "holds the site") {
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// Check checks that crawl id of site (served by srv) is finished with
// exactly the planted issues, URL by URL, and the records and progress
// the site's Stats promise.
func Check(t *testing.T, e Env, id int64, srv *Server, site *crawlsite.Site) {
	t.Helper()
	ctx := context.Background()
	c, err := e.Store.CrawlByID(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if c.Status != crawl.StatusFinished {
		t.Fatalf("status = %s (%s), want finished", c.Status, c.Failure)
	}
	got := map[string]int{}
	for _, tc := range c.Summary.Issues {
		got[string(tc.Type)] = tc.Count
	}
	if want := site.Expected(); !maps.Equal(got, want) {
		t.Errorf("issue counts = %v\nwant           %v", got, want)
	}
	var found, planted []string
	if err := e.Store.EachIssue(ctx, id, func(is crawl.Issue) error {
		found = append(found, issueKey(is.Type, strings.TrimPrefix(is.URL, srv.URL), is.Line))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, p := range site.Issues() {
		planted = append(planted, issueKey(p.Type, p.Path, p.Line))
	}
	if extra, missing := minus(found, planted), minus(planted, found); len(extra)+len(missing) > 0 {
		t.Errorf("issues differ:\n  found, not planted: %v\n  planted, not found: %v", extra, missing)
	}

	var st crawlsite.Stats
	if err := e.Store.EachPage(ctx, id, func(cp ports.CrawlPage) error {
		p := cp.Page
		st.Records++
		if p.InSitemap {
			st.SitemapURLs++
		}
		switch {
		case p.BlockedByRobots:
			st.Blocked++
		case p.Landed():
			st.Landed++
			st.MaxDepth = max(st.MaxDepth, p.Depth)
		case p.Broken():
			st.Errors++
		case len(p.Redirects) > 0:
			st.Redirected++
		default:
			t.Errorf("%s: a record of no kind: %+v", p.URL, p)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := site.Stats()
	if st != want {
		t.Errorf("records = %+v\nwant      %+v", st, want)
	}
	wantProgress := crawl.Progress{Discovered: want.Records, Crawled: want.Records - want.Blocked, Failed: want.Errors, Blocked: want.Blocked}
	if c.Progress != wantProgress {
		t.Errorf("progress = %+v, want %+v", c.Progress, wantProgress)
	}
}

func issueKey(t crawl.IssueType, path string, line int) string {
	if line > 0 {
		return fmt.Sprintf("%s %s:%d", t, path, line)
	}
	return string(t) + " " + path
}

// minus is what a has and b has not, sorted.
func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}
