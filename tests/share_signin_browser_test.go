package tests

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/adapters/httpapi/sharepage"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/ratelimit"
)

// TestOwnerSignInInBrowser drives the owner's sign-in on a private
// report's page in headless Chromium: the page is "not found" with a
// sign-in form; a wrong key is refused on the page; email and password
// open the report, kept across a reload by a cookie scripts cannot read;
// a form posted by a page of another origin is refused and signs no one
// in; sign-out brings the not-found page back.
func TestOwnerSignInInBrowser(t *testing.T) {
	browser := findChromium()
	if browser == "" {
		t.Skip("no chromium binary (apt-get install chromium, or set PINSIGHT_CHROMIUM): browser test skipped")
	}
	page := samplePage()
	analyser := reports.NewAnalyser(onePage{page}, reports.AnalyserConfig{})
	store := memory.NewReportStore()
	pw := accounts.NewPasswords(accounts.PasswordParams{MemoryKiB: 64, Time: 1, Threads: 1}, accounts.PasswordLimits{})
	mux := http.NewServeMux()
	if err := httpapi.Register(httpapi.NewAPI(mux), httpapi.Routes{Health: health.New(nil),
		Accounts: accounts.New(memory.NewAccountStore(), pw), Reports: reports.New(store, analyser, pw), Projects: reports.NewProjects(store),
		Share: sharepage.Options{Limiter: memory.NewRateLimiter()}}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(middleware.NewHandler(mux, middleware.Options{Limiter: memory.NewRateLimiter(),
		RateLimits: middleware.RateLimits{Auth: ratelimit.Limit{Requests: 20, Window: time.Minute}}}))
	defer srv.Close()

	siteAPI(t, srv, http.MethodPost, "/api/v1/register", "", url.Values{"email": {"ada@example.com"}, "password": {"correct horse"}})
	var tok struct{ Token string }
	_ = json.Unmarshal(siteAPI(t, srv, http.MethodPost, "/api/v1/login", "", url.Values{"email": {"ada@example.com"}, "password": {"correct horse"}}), &tok)
	var priv struct {
		ShareURL string `json:"share_url"`
	}
	_ = json.Unmarshal(siteAPI(t, srv, http.MethodPost, "/api/v1/reports", tok.Token, url.Values{"url": {"https://example.com/secret"}}), &priv)
	privURL := srv.URL + priv.ShareURL

	// A page of another origin that posts the sign-in form with ada's key
	// (a login CSRF: signing the visitor in as someone else).
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<!doctype html><form id="f" method="post" action="` + html.EscapeString(privURL+"/signin") + `">` +
			`<input name="key" value="` + html.EscapeString(tok.Token) + `"><input name="csrf" value="x"></form>` +
			`<script>document.getElementById("f").submit()</script>`))
	}))
	defer evil.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute) // far above the seconds a page takes, for a loaded machine
	defer cancelTime()

	if err := chromedp.Do(ctx, chromedp.Navigate(privURL), chromedp.WaitVisible(chromedp.CSS("#signin"))); err != nil {
		t.Fatalf("private page: %v", err)
	}
	if h := run(t, ctx, chromedp.Text(chromedp.CSS("h1"))); h != "Not found" {
		t.Errorf("heading before sign-in = %q", h)
	}
	if h := run(t, ctx, chromedp.Text(chromedp.CSS(".lock h2"))); h != "Your report or crawl?" {
		t.Errorf("sign-in heading as shown = %q, want it in sentence case", h) // innerText applies text-transform
	}
	err := chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS("#key"), "psk_wrong"),
		chromedp.Submit(chromedp.CSS("#signin")),
		chromedp.WaitVisible(chromedp.CSS("#error")),
	)
	if err != nil {
		t.Fatalf("wrong key: %v", err)
	}
	if e := run(t, ctx, chromedp.Text(chromedp.CSS("#error"))); !strings.Contains(e, "Wrong API key") {
		t.Errorf("wrong key error = %q", e)
	}
	err = chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS("#email"), "ada@example.com"),
		chromedp.SendKeys(chromedp.CSS("#signin-password"), "correct horse"),
		chromedp.Submit(chromedp.CSS("#signin")),
		chromedp.WaitVisible(chromedp.CSS("#score")),
	)
	if err != nil {
		t.Fatalf("email sign-in: %v", err)
	}
	cookies := run(t, ctx, chromedp.Evaluate[string](`document.cookie`))
	if err := chromedp.Do(ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#score"))); err != nil {
		t.Fatalf("reload signed in: %v", err)
	}
	if u := run(t, ctx, chromedp.Text(chromedp.CSS("#url"))); u != "https://example.com/secret" {
		t.Errorf("signed-in page shows %q", u)
	}
	if cookies != "" {
		t.Errorf("document.cookie = %q: the sign-in cookies must be HttpOnly", cookies)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#signout button")), chromedp.WaitVisible(chromedp.CSS("#signin"))); err != nil {
		t.Fatalf("sign-out: %v", err)
	}

	// The other origin's post is refused, and signs no one in.
	if err := chromedp.Do(ctx, chromedp.Navigate(evil.URL), chromedp.WaitVisible(chromedp.CSS("#error"))); err != nil {
		t.Fatalf("cross-origin post: %v", err)
	}
	if e := run(t, ctx, chromedp.Text(chromedp.CSS("#error"))); !strings.Contains(e, "another site") {
		t.Errorf("cross-origin post answered %q", e)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(privURL), chromedp.WaitVisible(chromedp.CSS("#signin"))); err != nil {
		t.Fatalf("private page after the cross-origin post: %v", err)
	}
	if body := run(t, ctx, chromedp.Evaluate[string](`document.body.innerText`)); strings.Contains(body, "example.com/secret") {
		t.Errorf("the cross-origin post signed the browser in: %.200s", body)
	}
}
