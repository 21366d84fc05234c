package crawls_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/ports"
)

// linkBomb is a hostile site: / is one page with links same-site links
// (/p/0, /p/1, ...; about 27 bytes each, so 190,000 make the 5 MiB a
// fetch reads), written as it is generated; every /p/N is a small page
// linking nowhere.
func linkBomb(links int) func(*site, http.ResponseWriter, *http.Request) {
	return func(_ *site, w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			b := bufio.NewWriterSize(w, 64<<10)
			b.WriteString("<!doctype html><html lang=en><head><title>Bomb</title><meta name=description content=\"A page of links\"></head><body><h1>Bomb</h1>")
			for i := range links {
				fmt.Fprintf(b, "<a href=\"/p/%d\">%d</a>\n", i, i)
			}
			b.WriteString("</body></html>")
			_ = b.Flush()
		case strings.HasPrefix(r.URL.Path, "/p/"):
			page(w, "Page "+r.URL.Path)
		default:
			http.NotFound(w, r)
		}
	}
}

// TestLinkBombFrontierIsBounded: a crawl of a page with 40,000 same-site
// links (within webpage.MaxElements, so all are parsed) and max_pages 300 keeps at most crawl.FrontierCap URLs, reads at
// most crawl.MaxLinksPerPage of the page's links and counts the rest.
func TestLinkBombFrontierIsBounded(t *testing.T) {
	const links = 40_000
	s := newSite(t, linkBomb(links))
	e := newEnv(t, crawls.Config{}, s.Server)
	e.start(t)
	c, err := e.crawls.Create(context.Background(), 1, crawl.Params{URL: s.URL + "/", MaxPages: ptr(300), Concurrency: ptr(4)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c = e.waitFinal(t, c.ID, 2*time.Minute)
	if c.Status != crawl.StatusFinished || c.Progress.Crawled != 300 {
		t.Fatalf("crawl: %s, %+v; want finished with 300 pages", c.Status, c.Progress)
	}
	if limit := c.Settings.FrontierCap(); c.Progress.Discovered > limit {
		t.Errorf("discovered %d URLs, want at most the frontier's cap %d", c.Progress.Discovered, limit)
	}
	// The page's links: the first MaxLinksPerPage read, the rest counted;
	// of those read, the ones beyond the frontier's cap counted too.
	if want := links - crawl.MaxLinksPerPage; c.Progress.LinksNotRead != want {
		t.Errorf("links not read = %d, want %d", c.Progress.LinksNotRead, want)
	}
	if want := crawl.MaxLinksPerPage - (c.Progress.Discovered - 1); c.Progress.NotQueued != want {
		t.Errorf("not queued = %d, want %d (links read %d, discovered %d)", c.Progress.NotQueued, want, crawl.MaxLinksPerPage, c.Progress.Discovered)
	}
	if n := outlinksOf(t, e.store, c.ID, s.URL+"/"); n != crawl.MaxLinksPerPage {
		t.Errorf("/ recorded with %d outlinks, want %d", n, crawl.MaxLinksPerPage)
	}
}

// TestLinksOfOnePageAreCapped: a page's links beyond
// crawl.MaxLinksPerPage are not read (counted), and those read beyond the
// frontier's cap are not queued (counted).
func TestLinksOfOnePageAreCapped(t *testing.T) {
	const links = crawl.MaxLinksPerPage + 1000
	s := newSite(t, linkBomb(links))
	e := newEnv(t, crawls.Config{}, s.Server)
	e.start(t)
	c, err := e.crawls.Create(context.Background(), 1, crawl.Params{URL: s.URL + "/", MaxPages: ptr(1)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c = e.waitFinal(t, c.ID, time.Minute)
	if n := outlinksOf(t, e.store, c.ID, s.URL+"/"); n != crawl.MaxLinksPerPage {
		t.Errorf("/ recorded with %d outlinks, want %d", n, crawl.MaxLinksPerPage)
	}
	if c.Progress.Discovered != c.Settings.FrontierCap() {
		t.Errorf("discovered %d, want the frontier's cap %d", c.Progress.Discovered, c.Settings.FrontierCap())
	}
	if c.Progress.LinksNotRead != 1000 || c.Progress.NotQueued != crawl.MaxLinksPerPage-(c.Progress.Discovered-1) {
		t.Errorf("progress %+v: want 1000 links not read, %d not queued", c.Progress, crawl.MaxLinksPerPage-(c.Progress.Discovered-1))
	}
}

// outlinksOf is the number of outlinks recorded for url in crawl id.
func outlinksOf(t *testing.T, store ports.CrawlStore, id int64, url string) int {
	t.Helper()
	n := -1
	err := store.EachPage(context.Background(), id, func(p ports.CrawlPage) error {
		if p.Page.URL == url {
			n = p.Outlinks
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// failingRecords is a crawl store whose RecordPages fails while fail says
// so for a call (counting its failures).
type failingRecords struct {
	ports.CrawlStore
	fail     func(found []ports.FrontierURL, pages []ports.FetchedPage) bool
	failures atomic.Int64
}

var errRecordTimeout = errors.New("sqlstore: record pages: context deadline exceeded (the statement timeout)")

func (f *failingRecords) RecordPages(ctx context.Context, id int64, found []ports.FrontierURL, pages []ports.FetchedPage) error {
	if f.fail(found, pages) {
		f.failures.Add(1)
		return errRecordTimeout
	}
	return f.CrawlStore.RecordPages(ctx, id, found, pages)
}

// failingEnv is newEnv whose crawls use store wrapped as failingRecords.
func failingEnv(t *testing.T, cfg crawls.Config, s *site, fail func([]ports.FrontierURL, []ports.FetchedPage) bool) (env, *failingRecords) {
	t.Helper()
	reports := memory.NewReportStore()
	store := memory.NewCrawlStore(reports)
	jobs := memory.NewJobs(reports, ports.JobSettings{})
	jobs.Crawls(store)
	wrapped := &failingRecords{CrawlStore: store, fail: fail}
	return env{crawls: crawls.New(wrapped, jobs, mustFetcher(t, s.Server), nil, cfg), store: store, jobs: jobs}, wrapped
}

// TestPageNotRefetchedWhenItsLinksFailToStore: a page whose links could
// not be stored with it (the store failing that write once) is recorded
// all the same and never fetched again; its links are stored after it.
func TestPageNotRefetchedWhenItsLinksFailToStore(t *testing.T) {
	s := newSite(t, threePages)
	var failed atomic.Bool
	e, _ := failingEnv(t, crawls.Config{Lease: 300 * time.Millisecond, Renew: 100 * time.Millisecond}, s,
		func(found []ports.FrontierURL, _ []ports.FetchedPage) bool {
			return len(found) > 0 && failed.CompareAndSwap(false, true)
		})
	e.start(t)
	c, err := e.crawls.Create(context.Background(), 1, crawl.Params{URL: s.URL + "/"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c = e.waitFinal(t, c.ID, 30*time.Second)
	if !failed.Load() {
		t.Fatal("the store never failed a write of links")
	}
	if c.Status != crawl.StatusFinished || c.Progress.Crawled != 3 {
		t.Errorf("crawl: %s, %+v; want finished with /, /a and /b", c.Status, c.Progress)
	}
	if n := s.hitsOf("/"); n != 1 {
		t.Errorf("/ fetched %d times, want once", n)
	}
}

// TestCancelOfRetryingCrawlIsFinal: a running crawl whose job failed
// (every record timing out) and waits for its retry reads cancelled
// soon after its cancel, without waiting for that retry; and the retry,
// when it comes, ends the job without fetching.
func TestCancelOfRetryingCrawlIsFinal(t *testing.T) {
	s := newSite(t, linkBomb(10))
	e, _ := failingEnv(t, crawls.Config{}, s, func([]ports.FrontierURL, []ports.FetchedPage) bool { return true })
	c, jobID, err := e.jobs.CreateCrawlWithJob(context.Background(), crawl.Crawl{UserID: 1, Site: "127.0.0.1",
		Settings: mustSettings(t, crawl.Params{URL: s.URL + "/", MaxPages: ptr(1)}), CreatedAt: time.Now()}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	job := ports.CrawlJob{ID: jobID, CrawlID: c.ID, UserID: 1, Attempt: 1}
	var retry *ports.RetryError
	if err := e.crawls.Run(context.Background(), job); !errors.As(err, &retry) {
		t.Fatalf("first attempt = %v, want a retry (its record failed)", err)
	}
	// The job waits for its backoff (minutes, after a few attempts).
	if _, err := e.crawls.Cancel(context.Background(), 1, c.ID); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		cur, err := e.crawls.Get(context.Background(), 1, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		if cur.Status == crawl.StatusCancelled {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("10 s after its cancel the crawl is still %s", cur.Status)
		}
		time.Sleep(20 * time.Millisecond)
	}
	hits := s.hitsOf("/")
	job.Attempt++
	if err := e.crawls.Run(context.Background(), job); err != nil {
		t.Errorf("the retry of a cancelled crawl = %v, want the job done", err)
	}
	if n := s.hitsOf("/"); n != hits {
		t.Errorf("/ fetched %d more times after the cancel", n-hits)
	}
	if got, _ := e.crawls.Get(context.Background(), 1, c.ID); got.Status != crawl.StatusCancelled {
		t.Errorf("in the end: %s, want cancelled", got.Status)
	}
}

// TestCancelledBeforeItsAttemptEndsAtOnce: an attempt of a crawl whose
// cancel was requested (while it held its site) finishes it cancelled
// before fetching anything.
func TestCancelledBeforeItsAttemptEndsAtOnce(t *testing.T) {
	s := newSite(t, linkBomb(10))
	e := newEnv(t, crawls.Config{}, s.Server)
	c, jobID, err := e.jobs.CreateCrawlWithJob(context.Background(), crawl.Crawl{UserID: 1, Site: "127.0.0.1",
		Settings: mustSettings(t, crawl.Params{URL: s.URL + "/"}), CreatedAt: time.Now()}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Another run holds the crawl (alive): the cancel is only requested.
	now := time.Now()
	if _, ok, err := e.store.ClaimSite(context.Background(), c.ID, "elsewhere/1", now, now.Add(time.Minute)); err != nil || !ok {
		t.Fatalf("claim = %v, %v", ok, err)
	}
	if cur, err := e.crawls.Cancel(context.Background(), 1, c.ID); err != nil || cur.Status != crawl.StatusRunning {
		t.Fatalf("cancel = %s, %v; want still running (its run is alive)", cur.Status, err)
	}
	if _, err := e.store.RenewSite(context.Background(), c.ID, "elsewhere/1", now); err != nil { // that run dies
		t.Fatal(err)
	}
	job := ports.CrawlJob{ID: jobID, CrawlID: c.ID, UserID: 1, Attempt: 2}
	if err := e.crawls.Run(context.Background(), job); err != nil {
		t.Errorf("run = %v, want done", err)
	}
	if got, _ := e.crawls.Get(context.Background(), 1, c.ID); got.Status != crawl.StatusCancelled {
		t.Errorf("after the run: %s, want cancelled", got.Status)
	}
	if n := s.hitsOf("/"); n != 0 {
		t.Errorf("/ fetched %d times, want never", n)
	}
}
