package porttest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
)

func testCrawlShare(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	share := func(id int64, now time.Time) crawl.Share {
		t.Helper()
		sh, err := s.Share(ctx, id, now)
		if err != nil {
			t.Fatalf("Share(%d): %v", id, err)
		}
		return sh
	}
	a1 := running(t, s, newCrawl(u[1], "https://a1.example/", 0))
	a2 := create(t, s, newCrawl(u[1], "https://a2.example/", 1))
	b := create(t, s, newCrawl(u[2], "https://b.example/", 2))
	now := crawlEpoch.Add(5 * time.Minute)
	if got := share(a2.ID, now); got != (crawl.Share{UserRunning: 1, OtherWaiting: true}) || !got.Yields() {
		t.Errorf("Share(the user's second crawl) = %+v, want 1 running, another waiting: yields", got)
	}
	if got := share(a1.ID, now); got != (crawl.Share{UserRunning: 0, OtherWaiting: true}) || got.Yields() {
		t.Errorf("Share(the user's only running crawl) = %+v, want none other running: keeps its worker", got)
	}
	if got := share(b.ID, now); got.UserRunning != 0 || got.Yields() {
		t.Errorf("Share(the other user's crawl) = %+v", got)
	}

	// The other user's crawl waits for its site (another crawl holds it):
	// nobody yields to it.
	c := running(t, s, newCrawl(u[3], "https://b.example/other", 3))
	if got := share(a2.ID, now); got.OtherWaiting || got.Yields() {
		t.Errorf("Share with the waiting crawl's site held = %+v, want nobody waiting", got)
	}
	finishCrawl(t, s, c.ID, 50) // its site is free again
	if got := share(a2.ID, now); !got.Yields() {
		t.Errorf("Share with the waiting crawl's site free again = %+v, want a yield", got)
	}
	// A crawl queued longer than crawl.MaxYieldFor (its job lost, say) is
	// not waited for.
	if got := share(a2.ID, b.CreatedAt.Add(crawl.MaxYieldFor+time.Second)); got.OtherWaiting {
		t.Errorf("Share with the waiting crawl queued too long = %+v, want nobody waiting", got)
	}

	// A final crawl never yields; a missing one is not found.
	finishCrawl(t, s, a1.ID, 50)
	if got := share(a1.ID, now); got != (crawl.Share{}) {
		t.Errorf("Share(a final crawl) = %+v, want zero", got)
	}
	if _, err := s.Share(ctx, 1<<40, now); !errors.Is(err, crawl.ErrNotFound) {
		t.Errorf("Share(missing) = %v, want crawl.ErrNotFound", err)
	}
}
