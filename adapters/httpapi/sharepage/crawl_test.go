package sharepage_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/adapters/httpapi/sharepage"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/robots"
	"github.com/pinsight/pinsight/ports"
)

// crawlServer is a site server with crawls on memory stores whose queue
// never runs: the tests end crawls through the store.
func crawlServer(t *testing.T) (http.Handler, *memory.CrawlStore) {
	t.Helper()
	pw := apitest.Passwords
	rs := memory.NewReportStore()
	cstore, jobs := memory.NewCrawlStore(rs), memory.NewJobs(rs, ports.JobSettings{})
	jobs.Crawls(cstore)
	h := apitest.NewHandler(t, httpapi.Routes{
		Accounts: accounts.New(memory.NewAccountStore(), pw),
		Reports:  reports.New(rs, apitest.NewFakeAnalyser(), pw),
		Crawls:   crawls.New(cstore, jobs, nil, pw, crawls.Config{DailyPages: -1, ActiveLimit: -1}),
		Share: sharepage.Options{CookieKey: []byte("test key"), Limiter: memory.NewRateLimiter(),
			Attempts: ratelimit.Limit{Requests: 5, Window: 1 << 40}},
	})
	return h, cstore
}

// createCrawl posts a crawl and returns it as the API shows it.
func createCrawl(t *testing.T, h http.Handler, token, body string) wire.CrawlItem {
	t.Helper()
	res := apitest.Do(t, h, http.MethodPost, "/api/v1/crawls", apitest.JSONType, body, apitest.Bearer(token)...)
	if res.Status != http.StatusAccepted {
		t.Fatalf("create crawl %s = %d %s %v", body, res.Status, res.Message, res.Errors)
	}
	var c wire.CrawlItem
	res.Decode(t, &c)
	return c
}

// endCrawl runs crawl id to its end in the store: hostile text in its
// issues, a robots.txt keeping GPTBot out, an llms.txt with a finding.
func endCrawl(t *testing.T, s *memory.CrawlStore, id int64) {
	t.Helper()
	ctx := context.Background()
	if _, ok, err := s.ClaimSite(ctx, id, "run", time.Now(), time.Now().Add(time.Hour)); err != nil || !ok {
		t.Fatalf("ClaimSite = %v, %v", ok, err)
	}
	issues := []crawl.Issue{
		{Type: crawl.BrokenLink, URL: `https://alpha.com/gone"><script>alert(1)</script>`, Detail: "answers 404 <b>gone</b>",
			Related: []string{"https://alpha.com/a", "https://alpha.com/b"}, RelatedTotal: 9},
		{Type: crawl.DuplicateTitle, URL: "https://alpha.com/t1", Detail: "shares its title"},
		{Type: crawl.DeepPage, URL: "https://alpha.com/deep", Detail: "4 clicks"},
	}
	if err := s.SaveIssues(ctx, id, issues); err != nil {
		t.Fatal(err)
	}
	c, err := s.CrawlByID(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	sum := crawl.Summary{Issues: crawl.Counts(issues),
		AI:        crawl.AIReadiness(robots.Parse([]byte("User-agent: GPTBot\nDisallow: /\n")), c.Settings.URL),
		LLMsTxt:   crawl.LLMsTxt{Found: true, Findings: crawl.CheckLLMsTxt([]byte("no title\n"))},
		Rendering: []crawl.RenderCount{{Rendered: true, Reason: "little_text", Pages: 7}, {Reason: "renderer_unavailable", Pages: 1}}}
	if _, err := s.FinishCrawl(ctx, id, ports.CrawlFinish{Status: crawl.StatusFinished, Score: 64, Rating: pagecheck.RatingFor(64),
		Summary: sum, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
}

// TestCrawlSharePage: a crawl's share_url shows its summary (score,
// rating, issue counts by type with severity, the most severe issues with
// their URLs, AI crawlers, llms.txt), escaped, with the report page's
// headers; privacy is honoured as for reports: public to anyone, private
// to its owner only (404 like a missing page to others), protected after
// the password, the cookie bound to its token.
func TestCrawlSharePage(t *testing.T) {
	h, store := crawlServer(t)
	ada := apitest.Login(t, h, "ada@example.com")
	bob := apitest.Login(t, h, "bob@example.com")
	pub := createCrawl(t, h, ada, `{"url":"https://alpha.com/","privacy":0}`)
	priv := createCrawl(t, h, ada, `{"url":"https://beta.com/"}`)
	prot := createCrawl(t, h, ada, `{"url":"https://gamma.com/","privacy":2,"password":"open sesame"}`)
	for _, c := range []wire.CrawlItem{pub, priv, prot} {
		if !regexp.MustCompile(`^/r/[a-z2-7]{26}$`).MatchString(c.ShareURL) {
			t.Fatalf("crawl %d share_url = %q", c.ID, c.ShareURL)
		}
		endCrawl(t, store, c.ID)
	}
	// The answer of GET /crawls/{id} carries the same share_url.
	res := apitest.Do(t, h, http.MethodGet, "/api/v1/crawls/"+apitest.Itoa(pub.ID), "", "", apitest.Bearer(ada)...)
	var got wire.CrawlItem
	res.Decode(t, &got)
	if got.ShareURL != pub.ShareURL {
		t.Errorf("GET share_url = %q, want %q", got.ShareURL, pub.ShareURL)
	}

	p := apitest.GetPage(t, h, pub.ShareURL)
	if p.Status != 200 || p.Header.Get("Cache-Control") != "private, no-store" || !strings.Contains(p.Header.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Fatalf("public crawl page = %d %v", p.Status, p.Header)
	}
	for _, want := range []string{
		`data-score="64"`, `id="band">decent<`, `id="site">alpha.com<`, `id="status">finished<`,
		`data-type="broken_link"`, `data-type="duplicate_title"`, `data-type="deep_page"`,
		`<span class="importance imp-high">high</span>`,
		`<code class="issue-url">https://alpha.com/gone&#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</code>`,
		`answers 404 &lt;b&gt;gone&lt;/b&gt;`, `<li><code>https://alpha.com/a</code></li>`, `7 more not shown`,
		`data-agent="GPTBot"`, `aria-label="blocked"`,
		`<strong>7 pages rendered</strong> <code>little_text</code>`, `<strong>1 page not rendered</strong> <code>renderer_unavailable</code>`, `/llms.txt: found, with problems`, `Issues <span class="muted">3 found</span>`,
	} {
		if !strings.Contains(p.Body, want) {
			t.Errorf("public crawl page lacks %s", want)
		}
	}
	if !strings.Contains(p.Body, `<span class="muted">site audit</span>`) || strings.Contains(strings.ToLower(p.Body), "report") {
		t.Errorf("the crawl page does not call itself a site audit, or names a report")
	}
	if strings.Contains(p.Body, "<script>") || strings.Contains(p.Body, "<b>gone") {
		t.Errorf("the page carries raw markup from the crawl:\n%s", p.Body)
	}
	// Most severe first: the broken link (high) before the duplicate title
	// (medium) before the deep page (low).
	if a, b, c := strings.Index(p.Body, `data-issue="broken_link"`), strings.Index(p.Body, `data-issue="duplicate_title"`),
		strings.Index(p.Body, `data-issue="deep_page"`); a < 0 || b < a || c < b {
		t.Errorf("top issues at %d, %d, %d; want by severity", a, b, c)
	}

	// Private: 404 to anyone but its owner, as a missing page (which
	// never says whether a report or a crawl hides behind it).
	missing := apitest.GetPage(t, h, "/r/"+strings.Repeat("a", 26))
	for _, who := range [][]string{nil, {"Authorization", "Bearer " + bob}} {
		if p := apitest.GetPage(t, h, priv.ShareURL, who...); p.Status != 404 || strings.Contains(p.Body, "beta.com") ||
			!strings.Contains(p.Body, "<h1>Not found</h1>") || !strings.Contains(p.Body, "No report or crawl is shared here") {
			t.Errorf("private crawl page to %v = %d %s", who, p.Status, p.Body)
		}
	}
	if missing.Status != 404 || !strings.Contains(missing.Body, "<h1>Not found</h1>") || !strings.Contains(missing.Body, "Your report or crawl?") {
		t.Errorf("missing page = %d %s", missing.Status, missing.Body)
	}
	if p := apitest.GetPage(t, h, priv.ShareURL, "Authorization", "Bearer "+ada); p.Status != 200 || !strings.Contains(p.Body, `id="site">beta.com<`) {
		t.Errorf("private crawl page to its owner = %d", p.Status)
	}

	// Protected: the password form, then the page with the cookie.
	if p := apitest.GetPage(t, h, prot.ShareURL); p.Status != 200 || !strings.Contains(p.Body, `id="unlock"`) || strings.Contains(p.Body, "data-score") ||
		!strings.Contains(p.Body, "<h1>This crawl is protected</h1>") || !strings.Contains(p.Body, "View crawl</button>") ||
		!strings.Contains(p.Body, "<title>Protected crawl ·") || strings.Contains(strings.ToLower(p.Body), "report") {
		t.Fatalf("protected crawl page = %d %s", p.Status, p.Body)
	}
	if p := apitest.PostPassword(h, prot.ShareURL, "wrong", "192.0.2.1:1"); p.Status != 403 || p.Header.Get("Set-Cookie") != "" ||
		!strings.Contains(p.Body, "This crawl is protected") || strings.Contains(strings.ToLower(p.Body), "report") {
		t.Errorf("wrong password = %d %s", p.Status, p.Body)
	}
	ok := apitest.PostPassword(h, prot.ShareURL, "open+sesame", "192.0.2.1:1")
	if ok.Status != 303 || ok.Header.Get("Location") != prot.ShareURL {
		t.Fatalf("right password = %d %v", ok.Status, ok.Header)
	}
	cookie := strings.SplitN(ok.Header.Get("Set-Cookie"), ";", 2)[0]
	if p := apitest.GetPage(t, h, prot.ShareURL, "Cookie", cookie); p.Status != 200 || !strings.Contains(p.Body, `id="site">gamma.com<`) {
		t.Errorf("protected crawl page with the cookie = %d", p.Status)
	}
	if p := apitest.GetPage(t, h, priv.ShareURL, "Cookie", cookie); p.Status != 404 {
		t.Errorf("the cookie opened another crawl: %d", p.Status)
	}

	// A crawl still running shows its progress and no issues yet.
	run := createCrawl(t, h, ada, `{"url":"https://delta.com/","privacy":0}`)
	if p := apitest.GetPage(t, h, run.ShareURL); p.Status != 200 || !strings.Contains(p.Body, `id="status">queued<`) ||
		!strings.Contains(p.Body, "has not ended yet") || strings.Contains(p.Body, `id="ai"`) {
		t.Errorf("queued crawl page = %d %s", p.Status, p.Body)
	}
}
