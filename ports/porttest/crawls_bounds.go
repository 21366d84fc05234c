package porttest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/ports"
)

// testFrontierCap: the frontier keeps at most Settings.FrontierCap URLs,
// the shallowest of a call first; the new URLs beyond it are counted as
// NotQueued (AddURLs and RecordPages' found alike), recorded pages are
// stored all the same, and the pages' LinksNotRead add up.
func testFrontierCap(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	c := newCrawl(u[1], "https://cap.example/", 0)
	c.Settings.MaxPages = 1 // a frontier of 10 URLs
	c = running(t, s, c)
	start := c.Settings.URL
	urls := []ports.FrontierURL{{URL: start, Depth: 0, Source: "start"}}
	for i := range 6 {
		urls = append(urls, ports.FrontierURL{URL: fmt.Sprintf("%sdeep%d", start, i), Depth: 2, Source: start})
	}
	for i := range 6 {
		urls = append(urls, ports.FrontierURL{URL: fmt.Sprintf("%snear%d", start, i), Depth: 1, Source: start})
	}
	n, err := s.AddURLs(ctx, c.ID, urls)
	if err != nil || n != 10 {
		t.Fatalf("AddURLs of 13 new URLs = %d, %v; want the cap, 10", n, err)
	}
	got, _ := s.CrawlByID(ctx, c.ID)
	if got.Progress.Discovered != 10 || got.Progress.NotQueued != 3 {
		t.Errorf("progress %+v, want 10 discovered, 3 not queued", got.Progress)
	}
	claimed, err := s.ClaimURLs(ctx, c.ID, 20, crawlEpoch, crawlEpoch.Add(time.Minute))
	if err != nil || len(claimed) != 1 || claimed[0].URL != start {
		t.Fatalf("ClaimURLs = %v, %v; want the start URL (max_pages 1)", urlsOf(claimed), err)
	}
	// Every depth-1 URL was kept, and the first three of depth 2.
	for _, want := range []string{"near0", "near5", "deep0", "deep2"} {
		if _, err := s.AddURLs(ctx, c.ID, []ports.FrontierURL{{URL: start + want, Depth: 0, Source: start}}); err != nil {
			t.Fatal(err)
		}
	}
	got, _ = s.CrawlByID(ctx, c.ID)
	if got.Progress.Discovered != 10 || got.Progress.NotQueued != 3 {
		t.Errorf("after adding kept URLs again: %+v, want 10 discovered, still 3 not queued", got.Progress)
	}
	if n, err := s.AddURLs(ctx, c.ID, []ports.FrontierURL{{URL: start + "deep5", Depth: 0, Source: start}}); err != nil || n != 0 {
		t.Errorf("AddURLs of a new URL in a full frontier = %d, %v; want 0", n, err)
	}
	page := ports.FetchedPage{Page: crawl.Page{URL: start, FinalURL: start, Status: 200, Outlinks: []string{start + "x", start + "y"}},
		FetchedAt: crawlEpoch, LinksNotRead: 7}
	redirected := ports.FetchedPage{Page: crawl.Page{URL: start + "target", FinalURL: start + "target", Status: 200}, FetchedAt: crawlEpoch, LinksNotRead: 2}
	err = s.RecordPages(ctx, c.ID, []ports.FrontierURL{{URL: start + "x", Depth: 1, Source: start}, {URL: start + "y", Depth: 1, Source: start}},
		[]ports.FetchedPage{page, redirected})
	if err != nil {
		t.Fatal(err)
	}
	got, _ = s.CrawlByID(ctx, c.ID)
	want := crawl.Progress{Discovered: 11, Crawled: 2, NotQueued: 6, LinksNotRead: 9}
	if got.Progress != want {
		t.Errorf("after RecordPages: %+v, want %+v (the page's own row stored past the cap)", got.Progress, want)
	}
	if rec, ok, err := s.RecordOf(ctx, c.ID, start+"target"); err != nil || !ok || rec.Status != 200 {
		t.Errorf("RecordOf(a page recorded past the cap) = %+v, %v, %v", rec, ok, err)
	}
}

// testCancelUnheld: a running crawl whose hold expired (its job waits
// for a retry) is cancelled at once, and no run holds it again; while a
// run holds it, the cancel is only requested (testCrawlCancel).
func testCancelUnheld(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	r := running(t, s, newCrawl(u[1], "https://unheld.example/", 0))
	if _, err := s.RenewSite(ctx, r.ID, "run", crawlEpoch.Add(time.Minute)); err != nil { // its run gives the hold up at +1 min
		t.Fatal(err)
	}
	at := crawlEpoch.Add(2 * time.Minute)
	got, err := s.CancelCrawl(ctx, u[1], r.ID, at)
	if err != nil || got.Status != crawl.StatusCancelled || !got.FinishedAt.Equal(at) || len(got.Settings.Headers) != 0 {
		t.Fatalf("CancelCrawl(running, hold expired) = %s at %v, %v; want cancelled at once", got.Status, got.FinishedAt, err)
	}
	if c, ok, err := s.ClaimSite(ctx, r.ID, "run", at, at.Add(time.Minute)); err != nil || ok || c.Status != crawl.StatusCancelled {
		t.Errorf("ClaimSite after the cancel = %s, %v, %v; want the final crawl, not held", c.Status, ok, err)
	}
	if _, err := s.RenewSite(ctx, r.ID, "run", at.Add(time.Minute)); !errors.Is(err, crawl.ErrLeaseLost) {
		t.Errorf("RenewSite after the cancel = %v, want ErrLeaseLost", err)
	}
	if _, err := s.CancelCrawl(ctx, u[1], r.ID, at); !errors.Is(err, crawl.ErrTransition) {
		t.Errorf("CancelCrawl again = %v, want ErrTransition", err)
	}
	other := create(t, s, newCrawl(u[2], "https://unheld.example/", 1))
	if _, ok, err := s.ClaimSite(ctx, other.ID, "other", at, at.Add(time.Minute)); err != nil || !ok {
		t.Errorf("another crawl's claim of the site = %v, %v; want it free", ok, err)
	}
}
