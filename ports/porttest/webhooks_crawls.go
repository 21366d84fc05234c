package porttest

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/webhook"
	"github.com/pinsight/pinsight/ports"
)

// testCrawlFinishQueuesDeliveries: FinishCrawl stores one crawl.finished
// delivery to each of the crawl's user's webhooks that wants the event,
// with its job, in its transaction: a FinishCrawl that fails stores none,
// and of several racing to end one crawl only the one that ends it
// stores them.
func testCrawlFinishQueuesDeliveries(t *testing.T, s JobsSubject) {
	if s.Crawls == nil {
		t.Skip("no crawl store in the subject")
	}
	ctx := context.Background()
	wants := newWebhookFor(t, s, 1, "https://a.example.com/hook", webhook.EventCrawlFinished)
	both := newWebhookFor(t, s, 1, "https://b.example.com/hook", webhook.EventReportFinished, webhook.EventCrawlFinished)
	reportsOnly := newWebhookFor(t, s, 1, "https://c.example.com/hook", webhook.EventReportFinished)
	other := newWebhookFor(t, s, 2, "https://d.example.com/hook", webhook.EventCrawlFinished)
	counts := func(what string, want int) {
		t.Helper()
		n1, n2, n3, n4 := len(deliveriesTo(t, s, wants)), len(deliveriesTo(t, s, both)), len(deliveriesTo(t, s, reportsOnly)), len(deliveriesTo(t, s, other))
		if n1 != want || n2 != want || n3 != 0 || n4 != 0 {
			t.Fatalf("%s: deliveries %d and %d to the user's crawl webhooks, %d to its report-only one, %d to another user's; want %d, %d, 0, 0",
				what, n1, n2, n3, n4, want, want)
		}
		if q := queuedDeliveries(t, s); q != 2*want {
			t.Fatalf("%s: %d delivery jobs queued, want %d", what, q, 2*want)
		}
	}

	c := newCrawl(1, "https://finish.example.com/", 0)
	c, err := s.Crawls.CreateCrawl(ctx, c, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A finish the crawl's status refuses (a queued crawl cannot finish)
	// stores nothing.
	if _, err := s.Crawls.FinishCrawl(ctx, c.ID, ports.CrawlFinish{Status: crawl.StatusFinished, At: time.Now()}); !errors.Is(err, crawl.ErrTransition) {
		t.Fatalf("FinishCrawl(queued -> finished) = %v, want ErrTransition", err)
	}
	if _, ok, err := s.Crawls.ClaimSite(ctx, c.ID, "run", time.Now(), time.Now().Add(time.Hour)); err != nil || !ok {
		t.Fatalf("ClaimSite = %v, %v", ok, err)
	}
	counts("created, then running", 0)

	sum := crawl.Summary{Issues: []crawl.TypeCount{{Type: crawl.BrokenLink, Severity: pagecheck.High, Count: 2}}}
	f := ports.CrawlFinish{Status: crawl.StatusFinished, Score: 72, Rating: pagecheck.RatingFor(72), Summary: sum, At: time.Now()}
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for range 6 {
		wg.Go(func() {
			_, err := s.Crawls.FinishCrawl(ctx, c.ID, f)
			switch {
			case err == nil:
				mu.Lock()
				won++
				mu.Unlock()
			case !errors.Is(err, crawl.ErrTransition):
				t.Errorf("racing FinishCrawl = %v", err)
			}
		})
	}
	wg.Wait()
	if won != 1 {
		t.Fatalf("%d racing FinishCrawl calls ended the crawl, want 1", won)
	}
	counts("finished", 1)
	d := deliveriesTo(t, s, wants)[0]
	var ev webhook.CrawlEvent
	if err := json.Unmarshal(d.Body, &ev); err != nil || ev.Event != webhook.EventCrawlFinished || ev.Crawl.ID != c.ID ||
		ev.Crawl.Status != string(crawl.StatusFinished) || ev.Crawl.Score != 72 || ev.Crawl.Result != string(pagecheck.Decent) ||
		ev.Crawl.URL != c.Settings.URL || ev.Crawl.Site != c.Site || len(ev.Crawl.Issues) != 1 || ev.Crawl.Issues[0].Count != 2 ||
		ev.Crawl.Issues[0].Type != string(crawl.BrokenLink) || ev.Crawl.FinishedAt.IsZero() ||
		d.UserID != 1 || d.ReportID != 0 || d.CrawlID != c.ID || d.Status != webhook.DeliveryPending || d.Attempts != 0 || d.Event != webhook.EventCrawlFinished {
		t.Errorf("delivery = %+v, body %s (%v); want a pending crawl.finished of crawl %d, finished, score 72", d, d.Body, err, c.ID)
	}
	if d2 := deliveriesTo(t, s, both)[0]; string(d2.Body) != string(d.Body) || d2.ID == d.ID {
		t.Errorf("the other webhook's delivery %+v, want its own with the same body", d2)
	}

	// A cancelled crawl queues its event too, with its status.
	r := newCrawl(1, "https://cancel.example.com/", 1)
	if r, err = s.Crawls.CreateCrawl(ctx, r, 0, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Crawls.CancelCrawl(ctx, 1, r.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Crawls.ClaimSite(ctx, r.ID, "run", time.Now(), time.Now().Add(time.Hour)); err != nil || ok {
		t.Fatalf("ClaimSite of a cancelled crawl = %v, %v; want false", ok, err)
	}
	counts("a queued crawl cancelled by its user", 2)
	if err := json.Unmarshal(deliveriesTo(t, s, wants)[1].Body, &ev); err != nil || ev.Crawl.ID != r.ID || ev.Crawl.Status != string(crawl.StatusCancelled) {
		t.Errorf("event of the cancelled crawl = %+v, %v", ev, err)
	}
}
