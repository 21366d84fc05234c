package porttest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/ports"
)

// pageURL is the URL of the i-th page of c's site.
func pageURL(c crawl.Crawl, i int) string { return fmt.Sprintf("%sp%d", c.Settings.URL, i) }

// pagesOf are n fetched pages of c, each linking to every one of them
// (itself included), with an audit.
func pagesOf(c crawl.Crawl, n int) []ports.FetchedPage {
	var links []string
	for i := range n {
		links = append(links, pageURL(c, i))
	}
	out := make([]ports.FetchedPage, n)
	for i := range n {
		out[i] = ports.FetchedPage{
			Page: crawl.Page{URL: pageURL(c, i), FinalURL: pageURL(c, i), Status: 200, Depth: 1, Title: fmt.Sprintf("Page %d", i),
				Fingerprint: 1<<63 | uint64(i+1)*0x9E3779B97F4A7C15, Outlinks: links},
			Score: 50 + i, Rating: pagecheck.RatingFor(50 + i), Results: sampleResults(),
			ResponseTime: time.Duration(i+1) * time.Millisecond, Bytes: int64(1000 + i), FetchedAt: crawlEpoch.Add(time.Duration(i) * time.Second),
		}
	}
	return out
}

// urlsOf are the URLs of claimed frontier entries.
func urlsOf(us []ports.FrontierURL) []string {
	out := []string{}
	for _, u := range us {
		out = append(out, u.URL)
	}
	return out
}

func testFrontier(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	c := running(t, s, newCrawl(u[1], "https://example.com/", 0))
	start := c.Settings.URL
	n, err := s.AddURLs(ctx, c.ID, []ports.FrontierURL{
		{URL: start, Depth: 0, Source: "start"},
		{URL: start + "a", Depth: 2, Source: start},
		{URL: start + "s", Depth: crawl.NoDepth, InSitemap: true, Source: "sitemap"},
		{URL: start + "b", Depth: 1, Source: start},
		{URL: start + "a", Depth: 1, Source: start + "b"}, // a repeat in the batch: the smaller depth
	})
	if err != nil || n != 4 {
		t.Fatalf("AddURLs = %d, %v; want 4 new", n, err)
	}
	n, err = s.AddURLs(ctx, c.ID, []ports.FrontierURL{
		{URL: start + "b", Depth: 3, InSitemap: true, Source: "sitemap"}, // keeps depth 1, now in the sitemap
		{URL: start + "s", Depth: 2, Source: start + "a"},                // found by a link: depth 2
		{URL: start + "c", Depth: 2, Source: start + "a"},
	})
	if err != nil || n != 1 {
		t.Fatalf("AddURLs again = %d, %v; want 1 new", n, err)
	}
	if got, _ := s.CrawlByID(ctx, c.ID); got.Progress.Discovered != 5 {
		t.Errorf("Discovered = %d, want 5", got.Progress.Discovered)
	}
	now := crawlEpoch
	got, err := s.ClaimURLs(ctx, c.ID, 2, now, now.Add(time.Minute))
	if err != nil || !reflect.DeepEqual(urlsOf(got), []string{start, start + "a"}) {
		t.Fatalf("ClaimURLs(2) = %v, %v", urlsOf(got), err)
	}
	want := []ports.FrontierURL{{URL: start, Depth: 0, Source: "start", Attempt: 1}, {URL: start + "a", Depth: 1, Source: start, Attempt: 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("claimed = %+v, want %+v", got, want)
	}
	// A URL waits while an unrecorded page two or more levels up may still
	// link to it: only depth 1 while the start page is in flight.
	got, err = s.ClaimURLs(ctx, c.ID, 10, now, now.Add(time.Minute))
	if err != nil || !reflect.DeepEqual(urlsOf(got), []string{start + "b"}) || !got[0].InSitemap {
		t.Errorf("ClaimURLs(10) with the start page in flight = %+v, %v; want b alone (depth 1)", got, err)
	}
	if err := s.RecordPages(ctx, c.ID, nil, []ports.FetchedPage{{Page: crawl.Page{URL: start, FinalURL: start, Status: 200}}}); err != nil {
		t.Fatal(err)
	}
	got, err = s.ClaimURLs(ctx, c.ID, 10, now, now.Add(time.Minute))
	if err != nil || !reflect.DeepEqual(urlsOf(got), []string{start + "s", start + "c"}) || got[0].Depth != 2 {
		t.Errorf("ClaimURLs(10) = %+v, %v; want s, c (depth 2, in discovery order)", got, err)
	}
	if got, err := s.ClaimURLs(ctx, c.ID, 10, now, now.Add(time.Minute)); err != nil || len(got) != 0 {
		t.Errorf("ClaimURLs with every URL leased = %v, %v", urlsOf(got), err)
	}
	// Sitemap-only URLs come last; MaxPages caps what is handed out.
	var more []ports.FrontierURL
	for i := range 60 {
		more = append(more, ports.FrontierURL{URL: fmt.Sprintf("%sm%02d", start, i), Depth: crawl.NoDepth, InSitemap: true, Source: "sitemap"})
	}
	more = append(more, ports.FrontierURL{URL: start + "deep", Depth: 7, Source: start + "c"})
	if _, err := s.AddURLs(ctx, c.ID, more); err != nil {
		t.Fatal(err)
	}
	if got, err := s.ClaimURLs(ctx, c.ID, 100, now, now.Add(time.Minute)); err != nil || len(got) != 0 {
		t.Fatalf("ClaimURLs with depths 1 and 2 in flight = %v, %v; want none (deep is at 7)", urlsOf(got), err)
	}
	var done []ports.FetchedPage
	for _, l := range []string{"a", "b", "s", "c"} {
		done = append(done, ports.FetchedPage{Page: crawl.Page{URL: start + l, FinalURL: start + l, Status: 200}})
	}
	if err := s.RecordPages(ctx, c.ID, nil, done); err != nil {
		t.Fatal(err)
	}
	// While URLs with a depth are unrecorded (leased or not), the
	// sitemap-only ones wait: the pages in flight may link to them.
	got, err = s.ClaimURLs(ctx, c.ID, 100, now, now.Add(time.Minute))
	if err != nil || !reflect.DeepEqual(urlsOf(got), []string{start + "deep"}) {
		t.Fatalf("ClaimURLs with only deep linked = %v, %v; want deep alone", urlsOf(got), err)
	}
	if got, err := s.ClaimURLs(ctx, c.ID, 100, now, now.Add(time.Minute)); err != nil || len(got) != 0 {
		t.Errorf("ClaimURLs with deep in flight = %v, %v; want none", urlsOf(got), err)
	}
	if err := s.RecordPages(ctx, c.ID, nil, []ports.FetchedPage{{Page: crawl.Page{URL: start + "deep", FinalURL: start + "deep", Status: 200}}}); err != nil {
		t.Fatal(err)
	}
	got, err = s.ClaimURLs(ctx, c.ID, 100, now, now.Add(time.Minute))
	if err != nil || len(got) != c.Settings.MaxPages-6 || got[0].URL != start+"m00" {
		t.Errorf("ClaimURLs past MaxPages = %d URLs (first %v), %v; want %d, m00 first", len(got), urlsOf(got[:min(1, len(got))]), err, c.Settings.MaxPages-6)
	}
	if _, err := s.AddURLs(ctx, c.ID+1000, more); err == nil {
		t.Errorf("AddURLs of a missing crawl = nil")
	}
	if _, err := s.ClaimURLs(ctx, c.ID+1000, 1, now, now); err == nil {
		t.Errorf("ClaimURLs of a missing crawl = nil")
	}
}

func testFrontierConcurrent(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	cr := newCrawl(u[1], "https://example.com/", 0)
	cr.Settings.MaxPages = 1000
	c := running(t, s, cr)
	const total = 120
	var urls []ports.FrontierURL
	for i := range total {
		urls = append(urls, ports.FrontierURL{URL: pageURL(c, i), Depth: 1, Source: "start"})
	}
	// Concurrent adds of overlapping batches add each URL once.
	var wg sync.WaitGroup
	var mu sync.Mutex
	added := 0
	for w := range 4 {
		wg.Go(func() {
			n, err := s.AddURLs(ctx, c.ID, urls[w*20:w*20+60])
			if err != nil {
				t.Errorf("AddURLs: %v", err)
			}
			mu.Lock()
			added += n
			mu.Unlock()
		})
	}
	wg.Wait()
	if added != total {
		t.Fatalf("concurrent AddURLs added %d, want %d", added, total)
	}
	now := crawlEpoch
	seen := map[string]int{}
	for w := range 6 {
		wg.Go(func() {
			for {
				got, err := s.ClaimURLs(ctx, c.ID, 7, now, now.Add(time.Hour))
				if err != nil {
					t.Errorf("worker %d: ClaimURLs: %v", w, err)
					return
				}
				if len(got) == 0 {
					return
				}
				mu.Lock()
				for _, g := range got {
					seen[g.URL]++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(seen) != total {
		t.Errorf("claimed %d distinct URLs, want %d", len(seen), total)
	}
	for url, n := range seen {
		if n != 1 {
			t.Errorf("%s claimed %d times while leased", url, n)
		}
	}
}

func testFrontierResume(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	c := running(t, s, newCrawl(u[1], "https://example.com/", 0))
	var urls []ports.FrontierURL
	for i := range 6 {
		urls = append(urls, ports.FrontierURL{URL: pageURL(c, i), Depth: 1, Source: "start"})
	}
	if _, err := s.AddURLs(ctx, c.ID, urls); err != nil {
		t.Fatal(err)
	}
	now := crawlEpoch
	first, err := s.ClaimURLs(ctx, c.ID, 4, now, now.Add(time.Minute))
	if err != nil || len(first) != 4 {
		t.Fatalf("ClaimURLs = %v, %v", first, err)
	}
	// Two are fetched and recorded, then the process dies (kill -9) with two in flight.
	if err := s.RecordPages(ctx, c.ID, nil, pagesOf(c, 2)); err != nil {
		t.Fatal(err)
	}
	if got, err := s.ClaimURLs(ctx, c.ID, 10, now.Add(30*time.Second), now.Add(2*time.Minute)); err != nil ||
		!reflect.DeepEqual(urlsOf(got), []string{pageURL(c, 4), pageURL(c, 5)}) {
		t.Fatalf("ClaimURLs before the leases expire = %v, %v; want only the unleased", urlsOf(got), err)
	}
	// After the restart, once the dead process's leases expire, only its in-flight URLs come back.
	later := now.Add(time.Minute)
	got, err := s.ClaimURLs(ctx, c.ID, 10, later, later.Add(time.Minute))
	if err != nil || !reflect.DeepEqual(urlsOf(got), []string{pageURL(c, 2), pageURL(c, 3)}) || got[0].Attempt != 2 {
		t.Errorf("ClaimURLs after the leases expired = %+v, %v; want p2, p3 at attempt 2", got, err)
	}
	// The site's hold expired too: the restarted run claims it again.
	if _, ok, err := s.ClaimSite(ctx, c.ID, "run-2", now.Add(2*time.Hour), now.Add(3*time.Hour)); err != nil || !ok {
		t.Errorf("ClaimSite by the restarted run = %v, %v", ok, err)
	}
}

// testMarkSeeded: a new crawl is not seeded; MarkSeeded makes it so, as
// every later read of it (the claim of a resumed run's included) says,
// and only it.
func testMarkSeeded(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	c := running(t, s, newCrawl(u[1], "https://example.com/", 0))
	other := running(t, s, newCrawl(u[1], "https://example.org/", 0))
	if c.Seeded || other.Seeded {
		t.Fatalf("new crawls seeded: %v, %v", c.Seeded, other.Seeded)
	}
	if err := s.MarkSeeded(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	if got, err := s.CrawlByID(ctx, c.ID); err != nil || !got.Seeded {
		t.Errorf("CrawlByID after MarkSeeded: seeded %v, %v", got.Seeded, err)
	}
	if got, err := s.CrawlByID(ctx, other.ID); err != nil || got.Seeded {
		t.Errorf("the other crawl: seeded %v, %v; want not", got.Seeded, err)
	}
	later := crawlEpoch.Add(2 * time.Hour)
	if got, ok, err := s.ClaimSite(ctx, c.ID, "run-2", later, later.Add(time.Hour)); err != nil || !ok || !got.Seeded {
		t.Errorf("ClaimSite by a resumed run = seeded %v, %v, %v", got.Seeded, ok, err)
	}
	if err := s.MarkSeeded(ctx, 1<<40); !errors.Is(err, crawl.ErrNotFound) {
		t.Errorf("MarkSeeded(unknown) = %v, want crawl.ErrNotFound", err)
	}
}

// testRecordPagesFound records pages with the URLs they found in one
// call: the URLs are merged into the frontier as AddURLs merges them, and
// a page recorded in the same call takes its URL's frontier depth.
func testRecordPagesFound(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	c := running(t, s, newCrawl(u[1], "https://example.com/", 0))
	start := c.Settings.URL
	if _, err := s.AddURLs(ctx, c.ID, []ports.FrontierURL{{URL: start, Depth: 0, Source: "start"}, {URL: start + "b", Depth: 3, Source: start}}); err != nil {
		t.Fatal(err)
	}
	found := []ports.FrontierURL{
		{URL: start + "a", Depth: 2, Source: start},
		{URL: start + "a", Depth: 1, InSitemap: true, Source: start}, // the same URL again: the smaller depth, the flag ORed
		{URL: start + "b", Depth: 1, Source: start},                  // there: its depth lowered, not counted
	}
	pages := []ports.FetchedPage{
		{Page: crawl.Page{URL: start, FinalURL: start, Status: 200, Outlinks: []string{start + "a", start + "b"}}, FetchedAt: crawlEpoch},
		{Page: crawl.Page{URL: start + "a", FinalURL: start + "a", Status: 200, Depth: 7}, FetchedAt: crawlEpoch},
	}
	if err := s.RecordPages(ctx, c.ID, found, pages); err != nil {
		t.Fatal(err)
	}
	got, err := s.CrawlByID(ctx, c.ID)
	if want := (crawl.Progress{Discovered: 3, Crawled: 2}); err != nil || got.Progress != want {
		t.Errorf("Progress = %+v, %v; want %+v", got.Progress, err, want)
	}
	if rec, ok, err := s.RecordOf(ctx, c.ID, start+"a"); err != nil || !ok || rec.Depth != 1 || !rec.InSitemap {
		t.Errorf("RecordOf(a) = %+v, %v, %v; want recorded at the frontier's depth 1, in a sitemap", rec, ok, err)
	}
	claimed, err := s.ClaimURLs(ctx, c.ID, 10, crawlEpoch, crawlEpoch.Add(time.Minute))
	if err != nil || len(claimed) != 1 || claimed[0].URL != start+"b" || claimed[0].Depth != 1 {
		t.Errorf("ClaimURLs = %+v, %v; want b alone, at depth 1", claimed, err)
	}
	if err := s.RecordPages(ctx, c.ID+1000, found, nil); !errors.Is(err, crawl.ErrNotFound) {
		t.Errorf("RecordPages of no crawl: %v, want crawl.ErrNotFound", err)
	}
}

func testRecordPages(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	c := running(t, s, newCrawl(u[1], "https://example.com/", 0))
	start := c.Settings.URL
	if _, err := s.AddURLs(ctx, c.ID, []ports.FrontierURL{{URL: start, Depth: 0, InSitemap: true, Source: "start"}}); err != nil {
		t.Fatal(err)
	}
	full := ports.FetchedPage{
		Page: crawl.Page{URL: start, FinalURL: start + "home", Status: 200, Depth: 9, Redirects: []string{start},
			Title: "Home — ½", Description: "d", Canonical: start + "home", Noindex: true, Fingerprint: 0xfedcba9876543210,
			Hreflang: []string{start + "fr"}, Lang: "en-in", Outlinks: []string{start + "a", start + "a", start + "b"}},
		Score: 81, Rating: pagecheck.Good, Results: sampleResults(), ResponseTime: 1234567 * time.Microsecond, Bytes: 98765,
		FetchedAt: crawlEpoch.Add(time.Second),
	}
	pages := []ports.FetchedPage{
		full,
		{Page: crawl.Page{URL: start + "gone", FinalURL: start + "gone", Status: 404, Depth: 1}, FetchedAt: crawlEpoch},
		{Page: crawl.Page{URL: start + "down", FinalURL: start + "down", Failure: "timeout", Depth: 1}, FetchedAt: crawlEpoch},
		{Page: crawl.Page{URL: start + "private", BlockedByRobots: true, Depth: 1}, FetchedAt: crawlEpoch},
	}
	if err := s.RecordPages(ctx, c.ID, nil, pages); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordPages(ctx, c.ID, nil, pages[1:2]); err != nil { // recorded again: counted once
		t.Fatal(err)
	}
	if rec, ok, err := s.RecordOf(ctx, c.ID, start+"gone"); err != nil || !ok || rec.Status != 404 || rec.Depth != 1 || rec.URL != start+"gone" {
		t.Errorf("RecordOf(gone) = %+v, %v, %v; want its record", rec, ok, err)
	}
	if rec, ok, err := s.RecordOf(ctx, c.ID, start); err != nil || !ok || rec.FinalURL != start+"home" || len(rec.Redirects) != 1 || rec.Outlinks != nil || rec.Depth != 0 {
		t.Errorf("RecordOf(start) = %+v, %v, %v; want its record without outlinks, at the frontier's depth", rec, ok, err)
	}
	if rec, ok, err := s.RecordOf(ctx, c.ID, start+"never"); err != nil || ok {
		t.Errorf("RecordOf(never) = %+v, %v, %v; want none", rec, ok, err)
	}
	if _, _, err := s.RecordOf(ctx, c.ID+1000, start); !errors.Is(err, crawl.ErrNotFound) {
		t.Errorf("RecordOf of no crawl: %v, want crawl.ErrNotFound", err)
	}
	got, _ := s.CrawlByID(ctx, c.ID)
	if want := (crawl.Progress{Discovered: 4, Crawled: 3, Failed: 2, Blocked: 1}); got.Progress != want {
		t.Errorf("Progress = %+v, want %+v", got.Progress, want)
	}
	list, total, err := s.Pages(ctx, u[1], c.ID, ports.PageQuery{})
	if err != nil || total != 4 || len(list) != 4 {
		t.Fatalf("Pages = %d of %d, %v", len(list), total, err)
	}
	home, err := s.Page(ctx, u[1], c.ID, list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	want := full
	want.Page.Depth, want.Page.InSitemap = 0, true // the frontier's
	want.Page.Outlinks = []string{start + "a", start + "b"}
	if !reflect.DeepEqual(home.FetchedPage, want) || home.Outlinks != 2 || home.Indexable || home.ID != list[0].ID {
		t.Errorf("Page =\n%+v\nwant\n%+v", home, want)
	}
	if list[0].Results != nil || list[0].Page.Outlinks != nil || list[0].Page.Title != full.Page.Title || list[0].Outlinks != 2 {
		t.Errorf("listed page = %+v; want no results and no outlinks", list[0])
	}
	if _, err := s.Page(ctx, u[2], c.ID, list[0].ID); err == nil {
		t.Errorf("Page of another user's crawl = nil error")
	}
	if _, err := s.Page(ctx, u[1], c.ID, list[3].ID+1000); err == nil {
		t.Errorf("Page of a missing page = nil error")
	}
	// Recorded URLs are never handed out again.
	if got, err := s.ClaimURLs(ctx, c.ID, 10, crawlEpoch, crawlEpoch.Add(time.Minute)); err != nil || len(got) != 0 {
		t.Errorf("ClaimURLs with every URL recorded = %v, %v", urlsOf(got), err)
	}
	if _, err := s.AddURLs(ctx, c.ID, []ports.FrontierURL{{URL: start + "later", Depth: 2}}); err != nil {
		t.Fatal(err)
	}
	if rec, ok, err := s.RecordOf(ctx, c.ID, start+"later"); err != nil || ok {
		t.Errorf("RecordOf(later) = %+v, %v, %v; want none before it is recorded", rec, ok, err)
	}
}
