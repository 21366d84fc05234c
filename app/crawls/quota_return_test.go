package crawls_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/ports"
)

// TestUnusedPagesGoBack: a crawl of 3 pages charged 50 gives 47 back to
// the daily quota when it finishes, once, even when its job runs again.
func TestUnusedPagesGoBack(t *testing.T) {
	ctx := context.Background()
	s := newSite(t, threePages)
	e := newEnv(t, crawls.Config{DailyPages: 100, Limiter: memory.NewRateLimiter()}, s.Server)
	e.start(t)
	c, err := e.crawls.Create(ctx, 1, crawl.Params{URL: s.URL + "/", MaxPages: ptr(50)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := e.waitFinal(t, c.ID, 2*time.Minute)
	if done.Status != crawl.StatusFinished || done.Progress.Crawled != 3 {
		t.Fatalf("crawl ended %s with %d pages crawled, want finished with 3", done.Status, done.Progress.Crawled)
	}
	// The job again, as after a crash: the crawl is final, nothing more comes back.
	if err := e.crawls.Run(ctx, ports.CrawlJob{ID: 1 << 30, CrawlID: c.ID, UserID: 1, Attempt: 1}); err != nil {
		t.Fatal(err)
	}
	var quota *crawls.QuotaError
	if _, err := e.crawls.Create(ctx, 1, crawl.Params{URL: s.URL + "/", MaxPages: ptr(98)}, nil); !errors.As(err, &quota) || quota.Fit != 97 {
		t.Fatalf("Create of 98 pages after a crawl of 3: %v, want a QuotaError with 97 left", err)
	}
}

// threePages serves / linking to /a and /b, which link nowhere.
func threePages(_ *site, w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/":
		page(w, "Home", "/a", "/b")
	case "/a", "/b":
		page(w, "Page "+r.URL.Path)
	default:
		http.NotFound(w, r)
	}
}
