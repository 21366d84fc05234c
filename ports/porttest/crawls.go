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
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/robots"
	"github.com/pinsight/pinsight/ports"
)

// CrawlStores is what TestCrawlStore runs on: an empty crawl store, the
// report store of the same database (whose Idempotency-Key records the
// crawl store finishes) and its account store, through which the suite
// creates the users its crawls belong to.
type CrawlStores struct {
	Crawls   ports.CrawlStore
	Reports  ports.ReportStore
	Accounts ports.AccountStore
}

// crawlEpoch is the creation time of the suite's first crawl.
var crawlEpoch = time.Date(2026, 12, 1, 9, 0, 0, 123456000, time.UTC)

// TestCrawlStore checks a CrawlStore. newStores must return empty stores
// of one database each time it is called.
func TestCrawlStore(t *testing.T, newStores func(t *testing.T) CrawlStores) {
	run := func(name string, test func(*testing.T, CrawlStores, owners)) {
		t.Run(name, func(t *testing.T) {
			st := newStores(t)
			test(t, st, newOwners(t, st.Accounts))
		})
	}
	run("create and get", testCrawlCreateGet)
	run("cap under concurrent creates", testCrawlCap)
	run("idempotency key", testCrawlIdempotency)
	run("list", testCrawlList)
	run("site claim", testCrawlSiteClaim)
	run("cancel", testCrawlCancel)
	run("cancel of a crawl no run holds", testCancelUnheld)
	run("finish", testCrawlFinish)
	run("frontier", testFrontier)
	run("frontier cap", testFrontierCap)
	run("frontier claims under concurrency", testFrontierConcurrent)
	run("resume after a crash", testFrontierResume)
	run("seeded once", testMarkSeeded)
	run("record pages", testRecordPages)
	run("record pages with the URLs they found", testRecordPagesFound)
	run("page list", testPageList)
	run("issues", testCrawlIssues)
	run("streaming", testCrawlStreaming)
	run("failing checks", testCrawlFailingChecks)
	run("delete", testCrawlDelete)
	run("schedule", testCrawlSchedule)
	run("share of workers", testCrawlShare)
	run("politeness units", testCrawlPoliteness)
	run("site turns", testCrawlSiteTurns)
	run("rendered pages", testCrawlRendered)
}

// newCrawl is a crawl of user of url, created n minutes after crawlEpoch.
func newCrawl(user int64, url string, n int) crawl.Crawl {
	maxPages := 50
	s, err := crawl.NewSettings(crawl.Params{URL: url, MaxPages: &maxPages, Include: []string{"/docs"}, Exclude: []string{"/private$"},
		Headers: map[string]string{"Cookie": "session=s3cret"}})
	if err != nil {
		panic(err)
	}
	site, err := report.ProjectName(s.URL)
	if err != nil {
		panic(err)
	}
	return crawl.Crawl{UserID: user, Site: site, Settings: s, CreatedAt: crawlEpoch.Add(time.Duration(n) * time.Minute)}
}

// create stores c with no cap, failing the test on error.
func create(t testing.TB, s ports.CrawlStore, c crawl.Crawl) crawl.Crawl {
	t.Helper()
	out, err := s.CreateCrawl(context.Background(), c, 0, nil)
	if err != nil {
		t.Fatalf("CreateCrawl: %v", err)
	}
	return out
}

// running creates a crawl and claims its site for holder "run".
func running(t testing.TB, s ports.CrawlStore, c crawl.Crawl) crawl.Crawl {
	t.Helper()
	c = create(t, s, c)
	got, ok, err := s.ClaimSite(context.Background(), c.ID, "run", crawlEpoch, crawlEpoch.Add(time.Hour))
	if err != nil || !ok {
		t.Fatalf("ClaimSite = %v, %v", ok, err)
	}
	return got
}

func testCrawlCreateGet(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	in := newCrawl(u[1], "https://www.example.com/", 0)
	in.Settings.Password, in.PasswordHash = "hunter22", "argon2id$hash"
	in.Status, in.Score = crawl.StatusFinished, 90 // ignored
	c := create(t, s, in)
	if c.ID <= 0 || !report.ValidShareToken(c.Token) || c.Status != crawl.StatusQueued || c.Score != 0 || c.Settings.Password != "" ||
		c.PasswordHash != "argon2id$hash" || !c.CreatedAt.Equal(in.CreatedAt) || !c.StartedAt.IsZero() || c.Site != "example.com" {
		t.Fatalf("CreateCrawl = %+v", c)
	}
	got, err := s.Crawl(ctx, u[1], c.ID)
	if err != nil || !reflect.DeepEqual(got, c) {
		t.Errorf("Crawl = %+v, %v;\nwant %+v", got, err, c)
	}
	if len(got.Settings.Headers) != 1 || got.Settings.Headers[0].Value != "session=s3cret" || got.Settings.MaxPages != 50 ||
		!reflect.DeepEqual(got.Settings.Include, []string{"/docs"}) || got.CreatedAt.Location() != time.UTC {
		t.Errorf("stored settings = %+v", got.Settings)
	}
	if byID, err := s.CrawlByID(ctx, c.ID); err != nil || !reflect.DeepEqual(byID, c) {
		t.Errorf("CrawlByID = %+v, %v", byID, err)
	}
	if byToken, err := s.CrawlByToken(ctx, c.Token); err != nil || !reflect.DeepEqual(byToken, c) {
		t.Errorf("CrawlByToken = %+v, %v", byToken, err)
	}
	if _, err := s.CrawlByToken(ctx, report.NewShareToken()); !errors.Is(err, crawl.ErrNotFound) {
		t.Errorf("CrawlByToken of an unknown token err = %v, want crawl.ErrNotFound", err)
	}
	if _, err := s.Crawl(ctx, u[2], c.ID); !errors.Is(err, crawl.ErrNotFound) {
		t.Errorf("Crawl of another user err = %v, want crawl.ErrNotFound", err)
	}
	if _, err := s.CrawlByID(ctx, c.ID+1000); !errors.Is(err, crawl.ErrNotFound) {
		t.Errorf("CrawlByID of a missing crawl err = %v", err)
	}
	c2 := create(t, s, newCrawl(u[1], "https://b.example/", 1))
	if c2.ID <= c.ID || c2.Token == c.Token {
		t.Errorf("second crawl id %d token %s after %d %s", c2.ID, c2.Token, c.ID, c.Token)
	}
	if err := s.DeleteCrawl(ctx, u[1], c2.ID); err != nil {
		t.Fatal(err)
	}
	if c3 := create(t, s, newCrawl(u[1], "https://c.example/", 2)); c3.ID <= c2.ID {
		t.Errorf("id after deleting the newest = %d, want > %d", c3.ID, c2.ID)
	}
}

func testCrawlCap(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	const limit, tries = 3, 12
	var wg sync.WaitGroup
	var mu sync.Mutex
	created, refused := 0, 0
	for i := range tries {
		wg.Go(func() {
			_, err := s.CreateCrawl(ctx, newCrawl(u[1], fmt.Sprintf("https://s%d.example/", i), i), limit, nil)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				created++
			case errors.Is(err, crawl.ErrActiveLimit):
				refused++
			default:
				t.Errorf("CreateCrawl: %v", err)
			}
		})
	}
	wg.Wait()
	if created != limit || refused != tries-limit {
		t.Fatalf("concurrent creates: %d created, %d refused; want %d and %d", created, refused, limit, tries-limit)
	}
	all, n, err := s.Crawls(ctx, u[1], crawl.ListQuery{SortBy: crawl.SortByCreatedAt, Page: paging.Page{PerPage: 50}})
	if err != nil || n != limit {
		t.Fatalf("Crawls after the race = %d, %v", n, err)
	}
	if _, err := s.CreateCrawl(ctx, newCrawl(u[2], "https://other.example/", 0), limit, nil); err != nil {
		t.Errorf("another user's create = %v", err)
	}
	// A final crawl frees its place.
	if _, err := s.CancelCrawl(ctx, u[1], all[0].ID, crawlEpoch); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateCrawl(ctx, newCrawl(u[1], "https://again.example/", 20), limit, nil); err != nil {
		t.Errorf("create after a cancel = %v", err)
	}
	if _, err := s.CreateCrawl(ctx, newCrawl(u[1], "https://more.example/", 21), limit, nil); !errors.Is(err, crawl.ErrActiveLimit) {
		t.Errorf("create past the cap = %v", err)
	}
}

func testCrawlIdempotency(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	now := crawlEpoch
	idem := report.Idempotency{UserID: u[1], Key: "crawl-1", Fingerprint: "f", Claim: "c1", LockedUntil: now.Add(time.Minute), ExpiresAt: now.Add(report.IdempotencyKeyTTL)}
	if _, ok, err := st.Reports.ClaimIdempotency(ctx, idem, now); err != nil || !ok {
		t.Fatalf("ClaimIdempotency = %v, %v", ok, err)
	}
	held := idem
	held.Outcome = report.OutcomeAccepted
	c, err := s.CreateCrawl(ctx, newCrawl(u[1], "https://example.com/", 0), 0, &held)
	if err != nil {
		t.Fatal(err)
	}
	rec, ok, err := st.Reports.ClaimIdempotency(ctx, idem, now)
	if err != nil || ok || rec.Outcome != report.OutcomeAccepted || !reflect.DeepEqual(rec.ReportIDs, []int64{c.ID}) {
		t.Errorf("the key after CreateCrawl = %+v, %v, %v; want accepted with the crawl's id", rec, ok, err)
	}
	lost := held
	lost.Key, lost.Claim = "never-claimed", "c2"
	if _, err := s.CreateCrawl(ctx, newCrawl(u[1], "https://lost.example/", 1), 0, &lost); !errors.Is(err, report.ErrClaimLost) {
		t.Errorf("CreateCrawl under a lost claim = %v", err)
	}
	if _, n, _ := s.Crawls(ctx, u[1], crawl.ListQuery{SortBy: crawl.SortByCreatedAt}); n != 1 {
		t.Errorf("crawls after a lost claim = %d, want 1", n)
	}
}

func testCrawlList(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	a := running(t, s, newCrawl(u[1], "https://alpha.example/", 0))
	b := create(t, s, newCrawl(u[1], "https://www.beta.example/", 1))
	c := running(t, s, newCrawl(u[1], "https://gamma.example/", 2))
	create(t, s, newCrawl(u[2], "https://alpha.example/", 3))
	if err := s.RecordPages(ctx, a.ID, nil, pagesOf(a, 3)); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordPages(ctx, c.ID, nil, pagesOf(c, 1)); err != nil {
		t.Fatal(err)
	}
	finishCrawl(t, s, a.ID, 40)
	finishCrawl(t, s, c.ID, 95)
	ids := func(cs []crawl.Crawl) []int64 {
		out := []int64{}
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return out
	}
	for _, tc := range []struct {
		p     crawl.ListParams
		want  []int64
		total int
	}{
		{crawl.ListParams{}, []int64{c.ID, b.ID, a.ID}, 3},
		{crawl.ListParams{Sort: "asc"}, []int64{a.ID, b.ID, c.ID}, 3},
		{crawl.ListParams{SortBy: "pages"}, []int64{a.ID, c.ID, b.ID}, 3},
		{crawl.ListParams{SortBy: "score", Sort: "asc"}, []int64{b.ID, a.ID, c.ID}, 3},
		{crawl.ListParams{Status: "finished"}, []int64{c.ID, a.ID}, 2},
		{crawl.ListParams{Status: "queued"}, []int64{b.ID}, 1},
		{crawl.ListParams{Search: "BETA"}, []int64{b.ID}, 1},
		{crawl.ListParams{Search: "a.ex"}, []int64{c.ID, b.ID, a.ID}, 3},
		{crawl.ListParams{PerPage: 10, Page: 2}, []int64{}, 3},
		{crawl.ListParams{Search: "nothing"}, []int64{}, 0},
	} {
		q, err := crawl.NewListQuery(tc.p)
		if err != nil {
			t.Fatal(err)
		}
		got, total, err := s.Crawls(ctx, u[1], q)
		if tc.p == (crawl.ListParams{}) {
			q.PerPage, q.Number = 2, 2 // a small page, as no API query can ask
			if second, n, err := s.Crawls(ctx, u[1], q); err != nil || n != 3 || !reflect.DeepEqual(ids(second), []int64{a.ID}) {
				t.Errorf("Crawls, second page of 2 = %v (total %d), %v", ids(second), n, err)
			}
		}
		if err != nil || total != tc.total || !reflect.DeepEqual(ids(got), tc.want) {
			t.Errorf("Crawls(%+v) = %v (total %d), %v; want %v (total %d)", tc.p, ids(got), total, err, tc.want, tc.total)
		}
	}
	// The previous finished crawl of the same start URL and scope by the
	// same user: not one of another section, port or scope of the site.
	finishCrawl(t, s, running(t, s, newCrawl(u[1], "https://alpha.example/x", 3)).ID, 70)
	finishCrawl(t, s, running(t, s, newCrawl(u[1], "https://alpha.example:8443/", 4)).ID, 70)
	wide := newCrawl(u[1], "https://alpha.example/", 5)
	wide.Settings.Subdomains = true
	finishCrawl(t, s, running(t, s, wide).ID, 70)
	a2 := create(t, s, newCrawl(u[1], "https://alpha.example/", 6))
	if prev, err := s.PreviousCrawl(ctx, u[1], a2.ID); err != nil || prev.ID != a.ID {
		t.Errorf("PreviousCrawl = %d, %v; want %d (the same start URL and scope)", prev.ID, err, a.ID)
	}
	if _, err := s.PreviousCrawl(ctx, u[1], a.ID); !errors.Is(err, crawl.ErrNotFound) {
		t.Errorf("PreviousCrawl of the first = %v", err)
	}
	if _, err := s.PreviousCrawl(ctx, u[2], a2.ID); !errors.Is(err, crawl.ErrNotFound) {
		t.Errorf("PreviousCrawl of another user's crawl = %v", err)
	}
}

// finishCrawl ends crawl id as finished with score.
func finishCrawl(t testing.TB, s ports.CrawlStore, id int64, score int) crawl.Crawl {
	t.Helper()
	c, err := s.FinishCrawl(context.Background(), id, ports.CrawlFinish{Status: crawl.StatusFinished, Score: score,
		Rating: pagecheck.RatingFor(score), At: crawlEpoch.Add(time.Hour)})
	if err != nil {
		t.Fatalf("FinishCrawl: %v", err)
	}
	return c
}

func testCrawlSiteClaim(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	now := crawlEpoch
	a := create(t, s, newCrawl(u[1], "https://www.example.com/", 0))
	b := create(t, s, newCrawl(u[2], "https://www.example.com/blog", 1)) // the same origin
	other := create(t, s, newCrawl(u[2], "https://other.example/", 2))
	got, ok, err := s.ClaimSite(ctx, a.ID, "run-a", now, now.Add(time.Minute))
	if err != nil || !ok || got.Status != crawl.StatusRunning || !got.StartedAt.Equal(now) {
		t.Fatalf("ClaimSite(a) = %+v, %v, %v", got, ok, err)
	}
	if got, ok, err := s.ClaimSite(ctx, b.ID, "run-b", now.Add(time.Second), now.Add(time.Minute)); err != nil || ok || got.Status != crawl.StatusQueued {
		t.Errorf("ClaimSite(b) while a runs = %v, %v, %v; want b to wait queued", got.Status, ok, err)
	}
	if _, ok, err := s.ClaimSite(ctx, other.ID, "run-o", now, now.Add(time.Minute)); err != nil || !ok {
		t.Errorf("ClaimSite of another site = %v, %v", ok, err)
	}
	if _, ok, err := s.ClaimSite(ctx, a.ID, "run-x", now.Add(time.Second), now.Add(time.Minute)); err != nil || ok {
		t.Errorf("ClaimSite(a) by another run while held = %v, %v; want false", ok, err)
	}
	if _, ok, err := s.ClaimSite(ctx, a.ID, "run-a", now.Add(time.Second), now.Add(2*time.Minute)); err != nil || !ok {
		t.Errorf("ClaimSite(a) again by its run = %v, %v; want true", ok, err)
	}
	if cancel, err := s.RenewSite(ctx, a.ID, "run-a", now.Add(3*time.Minute)); err != nil || cancel {
		t.Errorf("RenewSite(a) = %v, %v", cancel, err)
	}
	if _, err := s.RenewSite(ctx, b.ID, "run-b", now.Add(3*time.Minute)); !errors.Is(err, crawl.ErrLeaseLost) {
		t.Errorf("RenewSite(b) without a hold = %v", err)
	}
	// a's process dies: once its lease expires, b takes the site.
	later := now.Add(3*time.Minute + time.Second)
	if got, ok, err := s.ClaimSite(ctx, b.ID, "run-b", later, later.Add(time.Minute)); err != nil || !ok || got.Status != crawl.StatusRunning {
		t.Fatalf("ClaimSite(b) after a's lease expired = %+v, %v, %v", got, ok, err)
	}
	if _, err := s.RenewSite(ctx, a.ID, "run-a", later.Add(time.Minute)); !errors.Is(err, crawl.ErrLeaseLost) {
		t.Errorf("RenewSite(a) after b took over = %v, want ErrLeaseLost", err)
	}
	if _, ok, _ := s.ClaimSite(ctx, a.ID, "run-a2", later, later.Add(time.Minute)); ok {
		t.Errorf("ClaimSite(a) while b holds the site = true")
	}
	// b finishes: the site is free at once.
	finishCrawl(t, s, b.ID, 50)
	if _, err := s.RenewSite(ctx, b.ID, "run-b", later.Add(time.Minute)); !errors.Is(err, crawl.ErrLeaseLost) {
		t.Errorf("RenewSite after finishing = %v", err)
	}
	if got, ok, err := s.ClaimSite(ctx, a.ID, "run-a2", later, later.Add(time.Minute)); err != nil || !ok || got.Status != crawl.StatusRunning {
		t.Errorf("ClaimSite(a) after b finished = %v, %v, %v", got.Status, ok, err)
	}
	// A final crawl claims nothing.
	if got, ok, err := s.ClaimSite(ctx, b.ID, "run-b", later, later.Add(time.Minute)); err != nil || ok || got.Status != crawl.StatusFinished {
		t.Errorf("ClaimSite of a finished crawl = %v, %v, %v", got.Status, ok, err)
	}
	if _, _, err := s.ClaimSite(ctx, other.ID+1000, "x", now, now); !errors.Is(err, crawl.ErrNotFound) {
		t.Errorf("ClaimSite of a missing crawl = %v", err)
	}
	if _, err := s.RenewSite(ctx, other.ID+1000, "x", now); !errors.Is(err, crawl.ErrNotFound) {
		t.Errorf("RenewSite of a missing crawl = %v", err)
	}
}

func testCrawlCancel(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	q := create(t, s, newCrawl(u[1], "https://q.example/", 0))
	got, err := s.CancelCrawl(ctx, u[1], q.ID, crawlEpoch.Add(time.Minute))
	if err != nil || got.Status != crawl.StatusCancelled || !got.FinishedAt.Equal(crawlEpoch.Add(time.Minute)) || len(got.Settings.Headers) != 0 {
		t.Errorf("CancelCrawl(queued) = %+v, %v", got, err)
	}
	if _, err := s.CancelCrawl(ctx, u[1], q.ID, crawlEpoch); !errors.Is(err, crawl.ErrTransition) {
		t.Errorf("CancelCrawl(cancelled) = %v, want ErrTransition", err)
	}
	if _, err := s.CancelCrawl(ctx, u[2], q.ID, crawlEpoch); !errors.Is(err, crawl.ErrNotFound) {
		t.Errorf("CancelCrawl of another user's crawl = %v", err)
	}
	r := running(t, s, newCrawl(u[1], "https://r.example/", 1))
	got, err = s.CancelCrawl(ctx, u[1], r.ID, crawlEpoch)
	if err != nil || got.Status != crawl.StatusRunning || !got.CancelRequested {
		t.Errorf("CancelCrawl(running) = %+v, %v; want running with CancelRequested", got, err)
	}
	if cancel, err := s.RenewSite(ctx, r.ID, "run", crawlEpoch.Add(time.Hour)); err != nil || !cancel {
		t.Errorf("RenewSite after a cancel = %v, %v; want true", cancel, err)
	}
	// A finish written after the cancel was asked for (its crawler read
	// the request too late) ends the crawl cancelled.
	end, err := s.FinishCrawl(ctx, r.ID, ports.CrawlFinish{Status: crawl.StatusFinished, At: crawlEpoch.Add(time.Minute)})
	if err != nil || end.Status != crawl.StatusCancelled {
		t.Errorf("FinishCrawl(finished) after a cancel = %+v, %v; want cancelled", end, err)
	}
}

func testCrawlFinish(t *testing.T, st CrawlStores, u owners) {
	ctx, s := context.Background(), st.Crawls
	q := create(t, s, newCrawl(u[1], "https://q.example/", 0))
	if _, err := s.FinishCrawl(ctx, q.ID, ports.CrawlFinish{Status: crawl.StatusFinished, At: crawlEpoch}); !errors.Is(err, crawl.ErrTransition) {
		t.Errorf("FinishCrawl(queued -> finished) = %v, want ErrTransition", err)
	}
	if f, err := s.FinishCrawl(ctx, q.ID, ports.CrawlFinish{Status: crawl.StatusFailed, Failure: "robots.txt unreachable", At: crawlEpoch}); err != nil ||
		f.Status != crawl.StatusFailed || f.Failure != "robots.txt unreachable" {
		t.Errorf("FinishCrawl(queued -> failed) = %+v, %v", f, err)
	}
	c := running(t, s, newCrawl(u[1], "https://example.com/", 1))
	if _, err := s.FinishCrawl(ctx, c.ID, ports.CrawlFinish{Status: crawl.StatusRunning, At: crawlEpoch}); !errors.Is(err, crawl.ErrTransition) {
		t.Errorf("FinishCrawl(running -> running) = %v", err)
	}
	pages := pagesOf(c, 4) // page i links to every page
	if err := s.RecordPages(ctx, c.ID, nil, pages); err != nil {
		t.Fatal(err)
	}
	rob := robots.Parse([]byte("User-agent: GPTBot\nDisallow: /\n"))
	sum := crawl.Summary{
		Issues:  []crawl.TypeCount{{Type: crawl.BrokenLink, Severity: pagecheck.High, Count: 2}, {Type: crawl.DeepPage, Severity: pagecheck.Low, Count: 1}},
		Checks:  []crawl.CheckCount{{Check: "title", Failing: 3}},
		AI:      crawl.AIReadiness(rob, c.Settings.URL),
		LLMsTxt: crawl.LLMsTxt{Found: true, Findings: crawl.CheckLLMsTxt([]byte("no title\n"))},
	}
	f := ports.CrawlFinish{Status: crawl.StatusFinished, Score: 72, Rating: pagecheck.RatingFor(72), Summary: sum, At: crawlEpoch.Add(time.Hour)}
	done, err := s.FinishCrawl(ctx, c.ID, f)
	if err != nil || done.Status != crawl.StatusFinished || done.Score != 72 || done.Rating != pagecheck.Decent ||
		!done.FinishedAt.Equal(f.At) || len(done.Settings.Headers) != 0 || !reflect.DeepEqual(done.Summary, sum) {
		t.Fatalf("FinishCrawl = %+v, %v", done, err)
	}
	got, err := s.Crawl(ctx, u[1], c.ID)
	if err != nil || !reflect.DeepEqual(got, done) {
		t.Errorf("Crawl after finish = %+v, %v;\nwant %+v", got, err, done)
	}
	if _, err := s.FinishCrawl(ctx, c.ID, f); !errors.Is(err, crawl.ErrTransition) {
		t.Errorf("FinishCrawl twice = %v", err)
	}
	list, _, err := s.Pages(ctx, u[1], c.ID, ports.PageQuery{SortBy: ports.SortPagesByURL})
	if err != nil || len(list) != 4 {
		t.Fatalf("Pages = %v, %v", list, err)
	}
	for _, p := range list {
		if p.Inlinks != 3 || p.Outlinks != 4 {
			t.Errorf("page %s: inlinks %d, outlinks %d; want 3 (itself aside) and 4", p.Page.URL, p.Inlinks, p.Outlinks)
		}
	}
}
