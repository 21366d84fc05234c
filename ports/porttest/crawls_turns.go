package porttest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/ports"
)

// testCrawlPoliteness: the hold is one per politeness unit: the origin
// (two ports, two hosts or two schemes are two), or with subdomains the
// unit given (the registrable domain).
func testCrawlPoliteness(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	now := crawlEpoch
	claim := func(c crawl.Crawl) bool {
		t.Helper()
		_, ok, err := s.ClaimSite(ctx, c.ID, "run", now, now.Add(time.Minute))
		if err != nil {
			t.Fatalf("ClaimSite(%s): %v", c.Settings.URL, err)
		}
		return ok
	}
	a := create(t, s, newCrawl(u[1], "http://127.0.0.1:8080/trap/0", 0))
	if a.Politeness != "http://127.0.0.1:8080" {
		t.Errorf("Politeness = %q, want the origin", a.Politeness)
	}
	if got, _ := s.CrawlByID(ctx, a.ID); got.Politeness != a.Politeness {
		t.Errorf("stored Politeness = %q, want %q", got.Politeness, a.Politeness)
	}
	if !claim(a) {
		t.Fatal("ClaimSite(a) = false")
	}
	for i, url := range []string{"http://127.0.0.1:8081/", "https://127.0.0.1:8080/", "http://localhost:8080/"} {
		if c := create(t, s, newCrawl(u[2], url, i+1)); !claim(c) {
			t.Errorf("ClaimSite(%s) while %s runs = false, want another origin free", url, a.Settings.URL)
		}
	}
	if c := create(t, s, newCrawl(u[2], "http://127.0.0.1:8080/other", 5)); claim(c) {
		t.Errorf("ClaimSite of the same origin = true, want it held")
	}
	// With subdomains, the registrable domain (set by the caller) is the
	// unit, across its hosts.
	sub := func(url string, n int) crawl.Crawl {
		c := newCrawl(u[3], url, n)
		c.Settings.Subdomains = true
		c.Politeness = c.Settings.Politeness("example.com")
		return create(t, s, c)
	}
	w := sub("https://www.example.com/", 6)
	if w.Politeness != "*.example.com" || !claim(w) {
		t.Fatalf("crawl with subdomains: Politeness %q, want *.example.com, claimed", w.Politeness)
	}
	if b := sub("https://blog.example.com/", 7); claim(b) {
		t.Errorf("ClaimSite of another host of the registrable domain = true, want it held")
	}
}

// testCrawlSiteTurns: a holder yields its site to the other user's crawl
// waiting for it longest, reserved for it (the holder cannot take it
// back meanwhile), and the crawls alternate; a waiter of the holder's own
// user is not handed the site.
func testCrawlSiteTurns(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	const origin = "https://turns.example/"
	claim := func(c crawl.Crawl, holder string, at time.Time) bool {
		t.Helper()
		_, ok, err := s.ClaimSite(ctx, c.ID, holder, at, at.Add(time.Minute))
		if err != nil {
			t.Fatalf("ClaimSite(%d): %v", c.ID, err)
		}
		return ok
	}
	share := func(c crawl.Crawl, at time.Time) crawl.Share {
		t.Helper()
		sh, err := s.Share(ctx, c.ID, at)
		if err != nil {
			t.Fatalf("Share(%d): %v", c.ID, err)
		}
		return sh
	}
	yield := func(c crawl.Crawl, holder string, at time.Time) bool {
		t.Helper()
		handed, err := s.YieldSite(ctx, c.ID, holder, at, at.Add(30*time.Second))
		if err != nil {
			t.Fatalf("YieldSite(%d): %v", c.ID, err)
		}
		return handed
	}
	bob := running(t, s, newCrawl(u[1], origin+"trap/0", 0)) // holds the site from crawlEpoch
	if got := share(bob, crawlEpoch.Add(time.Minute)); got.SiteWaiting || got.GivesSite() {
		t.Errorf("Share(bob) alone = %+v, want nobody waiting for his site", got)
	}
	// Bob's own second crawl of the site waits, but not for a turn.
	bob2 := create(t, s, newCrawl(u[1], origin+"again", 1))
	if got := share(bob, crawlEpoch.Add(time.Minute)); got.SiteWaiting {
		t.Errorf("Share(bob) with his own crawl waiting = %+v, want no turn", got)
	}
	carol := create(t, s, newCrawl(u[3], origin+"carol", 2))
	alice := create(t, s, newCrawl(u[2], origin+"alice", 3))
	if !alice.WaitingSince.Equal(alice.CreatedAt) {
		t.Errorf("a new crawl waits since %v, want its creation %v", alice.WaitingSince, alice.CreatedAt)
	}
	now := crawlEpoch.Add(5 * time.Minute)
	if claim(alice, "alice", now) || claim(carol, "carol", now) {
		t.Fatal("a waiter claimed the site Bob holds")
	}
	if got := share(bob, now); !got.SiteWaiting || !got.GivesSite() {
		t.Errorf("Share(bob) with Alice and Carol waiting = %+v, want SiteWaiting", got)
	}
	if got := share(alice, now); got.SiteWaiting {
		t.Errorf("Share(alice), who does not hold the site = %+v, want no SiteWaiting", got)
	}
	// Bob's slice ends: Carol, waiting longest, gets the site; nobody
	// else, Bob included, can take it meanwhile.
	if !yield(bob, "run", now) {
		t.Fatal("YieldSite(bob) = false, want handed to a waiter")
	}
	if got, _ := s.CrawlByID(ctx, bob.ID); !got.WaitingSince.Equal(now) || got.Status != crawl.StatusRunning {
		t.Errorf("Bob's crawl after yielding: %s waiting since %v, want running, waiting since %v", got.Status, got.WaitingSince, now)
	}
	if _, err := s.RenewSite(ctx, bob.ID, "run", now.Add(time.Minute)); !errors.Is(err, crawl.ErrLeaseLost) {
		t.Errorf("RenewSite(bob) after yielding = %v, want ErrLeaseLost", err)
	}
	if got := share(bob2, now.Add(time.Second)); !got.OtherWaiting {
		t.Errorf("Share with the site handed to Carol = %+v, want Carol counted as waiting (for a worker)", got)
	}
	later := now.Add(time.Second)
	if claim(bob, "run", later) || claim(bob2, "run2", later) || claim(alice, "alice", later) {
		t.Fatal("the site handed to Carol was claimed by another crawl")
	}
	if _, err := s.CancelCrawl(ctx, u[1], bob2.ID, later); err != nil {
		t.Fatal(err)
	}
	if !claim(carol, "carol", later.Add(time.Second)) {
		t.Fatal("ClaimSite(carol) of the site handed to her = false")
	}
	if got, _ := s.CrawlByID(ctx, carol.ID); got.Status != crawl.StatusRunning || !got.WaitingSince.IsZero() {
		t.Errorf("Carol's crawl after claiming: %s waiting since %v, want running, not waiting", got.Status, got.WaitingSince)
	}
	// Carol's turn ends: Alice (waiting since her creation) goes before
	// Bob (since his yield); then Bob.
	next := later.Add(20 * time.Second)
	if got := share(carol, next); !got.SiteWaiting {
		t.Errorf("Share(carol) = %+v, want SiteWaiting", got)
	}
	if !yield(carol, "carol", next) || !claim(alice, "alice", next) {
		t.Fatal("Carol's yield did not go to Alice")
	}
	next = next.Add(20 * time.Second)
	if !yield(alice, "alice", next) || claim(carol, "carol", next) || !claim(bob, "run-b", next) {
		t.Fatal("Alice's yield did not go to Bob, waiting before Carol")
	}
	// A handed site nobody claims is free once its reservation expires.
	next = next.Add(20 * time.Second)
	if !yield(bob, "run-b", next) {
		t.Fatal("Bob's second yield was not handed")
	}
	// Carol is handed the site (waiting longest) but her job is lost.
	if claim(alice, "alice", next.Add(29*time.Second)) {
		t.Error("Alice took the site within Carol's reservation")
	}
	if !claim(alice, "alice", next.Add(31*time.Second)) {
		t.Error("Alice could not take the site after Carol's reservation expired")
	}
	// Only the holder yields; a waiter of the holder's own user gets no
	// turn (the site is free after the yield); a crawl waiting longer
	// than crawl.MaxYieldFor is not waited for.
	if _, err := s.YieldSite(ctx, bob.ID, "run-b", next, next.Add(time.Minute)); !errors.Is(err, crawl.ErrLeaseLost) {
		t.Errorf("YieldSite by a run not holding the site = %v, want ErrLeaseLost", err)
	}
	for _, c := range []crawl.Crawl{bob, carol} {
		if _, err := s.FinishCrawl(ctx, c.ID, ports.CrawlFinish{Status: crawl.StatusFinished, At: next}); err != nil {
			t.Fatal(err)
		}
	}
	dave := create(t, s, newCrawl(u[1], origin+"dave", 0)) // waiting since crawlEpoch
	alice2 := create(t, s, newCrawl(u[2], origin+"alice2", 10))
	end := crawlEpoch.Add(crawl.MaxYieldFor + time.Minute)
	if !claim(alice, "alice", end) {
		t.Fatal("Alice could not renew her claim")
	}
	if got := share(alice, end); got.SiteWaiting {
		t.Errorf("Share(alice) with her own crawl and one waiting too long = %+v, want no SiteWaiting", got)
	}
	if yield(alice, "alice", end) {
		t.Error("YieldSite(alice) handed the site to her own crawl or to one waiting too long")
	}
	if !claim(dave, "dave", end.Add(time.Second)) {
		t.Error("the site was not free after a yield to nobody")
	}
	_ = alice2
}
