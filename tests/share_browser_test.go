package tests

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strconv"
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
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// onePage is a fetcher that serves the same hand-built page for every URL.
type onePage struct{ page *webpage.Fetched }

func (f onePage) Fetch(_ context.Context, rawURL string, _ ports.Admit) (*webpage.Fetched, error) {
	p := *f.page
	p.RequestedURL, p.Page.URL = rawURL, rawURL
	return &p, nil
}

func el(tag string, children ...*webpage.Node) *webpage.Node {
	return &webpage.Node{Type: webpage.ElementNode, Tag: tag, Children: children}
}

func text(s string) *webpage.Node { return &webpage.Node{Type: webpage.TextNode, Text: s} }

func samplePage() *webpage.Fetched {
	body := "<!doctype html><html lang=en><head><title>Browser test page</title></head><body><h1>Hello</h1><p>Some text.</p></body></html>"
	return &webpage.Fetched{
		Page: webpage.Response{Status: 200, Header: map[string][]string{"Content-Type": {"text/html; charset=utf-8"}},
			Body: []byte(body), WireBytes: int64(len(body)), Elapsed: 40 * time.Millisecond},
		Document: &webpage.Node{Type: webpage.DocumentNode, Children: []*webpage.Node{
			{Type: webpage.DoctypeNode, Tag: "html"},
			el("html", el("head", el("title", text("Browser test page"))), el("body", el("h1", text("Hello")), el("p", text("Some text.")))),
		}},
	}
}

// findChromium returns the browser binary, or "" when none is installed.
func findChromium() string {
	if p := os.Getenv("PINSIGHT_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// siteAPI calls the API of srv with a Bearer key, returning the data.
func siteAPI(t *testing.T, srv *httptest.Server, method, path, key string, form url.Values) json.RawMessage {
	t.Helper()
	req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var env struct {
		Success bool            `json:"success"`
		Data    json.RawMessage `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&env); err != nil || !env.Success {
		t.Fatalf("%s %s = %d (%v)", method, path, res.StatusCode, err)
	}
	return env.Data
}

// TestSharePageInBrowser drives the public report page in headless
// Chromium: the report renders its score, band and checks with its style
// sheet applied, and the password flow unlocks a protected report and
// remembers it in a cookie scripts cannot read.
func TestSharePageInBrowser(t *testing.T) {
	browser := findChromium()
	if browser == "" {
		t.Skip("no chromium binary (apt-get install chromium, or set PINSIGHT_CHROMIUM): browser test skipped")
	}
	page := samplePage()
	analyser := reports.NewAnalyser(onePage{page}, reports.AnalyserConfig{})
	store := memory.NewReportStore()
	mux := http.NewServeMux()
	if err := httpapi.Register(httpapi.NewAPI(mux), httpapi.Routes{Health: health.New(nil),
		Accounts: accounts.New(memory.NewAccountStore(), accounts.NewPasswords(accounts.PasswordParams{MemoryKiB: 64, Time: 1, Threads: 1}, accounts.PasswordLimits{})),
		Reports:  reports.New(store, analyser, accounts.NewPasswords(accounts.DefaultPasswordParams, accounts.PasswordLimits{})), Projects: reports.NewProjects(store),
		Share: sharepage.Options{Limiter: memory.NewRateLimiter()}}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(middleware.NewHandler(mux, middleware.Options{}))
	defer srv.Close()

	siteAPI(t, srv, http.MethodPost, "/api/v1/register", "", url.Values{"email": {"ada@example.com"}, "password": {"correct horse"}})
	var tok struct{ Token string }
	_ = json.Unmarshal(siteAPI(t, srv, http.MethodPost, "/api/v1/login", "", url.Values{"email": {"ada@example.com"}, "password": {"correct horse"}}), &tok)
	var pub, prot, priv struct {
		ID       int64  `json:"id"`
		Score    int    `json:"score"`
		ShareURL string `json:"share_url"`
	}
	_ = json.Unmarshal(siteAPI(t, srv, http.MethodPost, "/api/v1/reports", tok.Token, url.Values{"url": {"https://example.com/"}, "privacy": {"0"}}), &pub)
	_ = json.Unmarshal(siteAPI(t, srv, http.MethodPost, "/api/v1/reports", tok.Token, url.Values{"url": {"https://example.com/p"}, "privacy": {"2"}, "password": {"open sesame"}}), &prot)
	_ = json.Unmarshal(siteAPI(t, srv, http.MethodPost, "/api/v1/reports", tok.Token, url.Values{"url": {"https://example.com/q"}}), &priv)
	fetched, _ := onePage{page}.Fetch(context.Background(), "https://example.com/", nil)
	want := pagecheck.Analyse(fetched, pagecheck.DefaultWeights)
	checks := 0
	for _, cs := range want.Results {
		checks += len(cs)
	}

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute) // far above the seconds a page takes, for a loaded machine
	defer cancelTime()

	pubURL := srv.URL + pub.ShareURL
	if err := chromedp.Do(ctx, chromedp.Navigate(pubURL), chromedp.WaitVisible(chromedp.CSS("#score"))); err != nil {
		t.Fatalf("public page: %v", err)
	}
	score := run(t, ctx, chromedp.AttributeValue(chromedp.CSS("#score"), "data-score")).Value
	band := run(t, ctx, chromedp.Text(chromedp.CSS("#band")))
	rendered := run(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("li.check").length`))
	background := run(t, ctx, chromedp.Evaluate[string](`getComputedStyle(document.querySelector("#score")).backgroundColor`))
	if score != strconv.Itoa(want.Score) || !strings.EqualFold(band, string(want.Rating)) || rendered != checks {
		t.Errorf("page shows score %s, band %q, %d checks; want %d, %q, %d", score, band, rendered, want.Score, want.Rating, checks)
	}
	if bandColour := map[pagecheck.Rating]string{pagecheck.Good: "rgb(26, 127, 55)", pagecheck.Decent: "rgb(183, 121, 31)", pagecheck.Bad: "rgb(198, 40, 40)"}[want.Rating]; background != bandColour {
		t.Errorf("score background %q, want %q: the style sheet was not applied (CSP?)", background, bandColour)
	}
	// A private report's page, and the numeric address of a public one, are
	// not found.
	for _, path := range []string{priv.ShareURL, "/reports/" + strconv.FormatInt(pub.ID, 10)} {
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+path)); err != nil {
			t.Fatal(err)
		}
		if path == priv.ShareURL {
			if missing := run(t, ctx, chromedp.Text(chromedp.CSS("h1"))); missing != "Not found" {
				t.Errorf("private report page heading = %q", missing)
			}
		}
		if body := run(t, ctx, chromedp.Evaluate[string](`document.body.innerText`)); strings.Contains(body, "example.com") {
			t.Errorf("%s shows the report: %.200s", path, body)
		}
	}

	protURL := srv.URL + prot.ShareURL
	err := chromedp.Do(ctx,
		chromedp.Navigate(protURL),
		chromedp.WaitVisible(chromedp.CSS("#unlock")),
		chromedp.SendKeys(chromedp.CSS("#password"), "wrong guess"),
		chromedp.Submit(chromedp.CSS("#unlock")),
		chromedp.WaitVisible(chromedp.CSS("#error")),
	)
	if err != nil {
		t.Fatalf("wrong password: %v", err)
	}
	errText := run(t, ctx, chromedp.Text(chromedp.CSS("#error")))
	err = chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS("#password"), "open sesame"),
		chromedp.Submit(chromedp.CSS("#unlock")),
		chromedp.WaitVisible(chromedp.CSS("#score")),
	)
	if err != nil {
		t.Fatalf("right password: %v", err)
	}
	unlockedScore := run(t, ctx, chromedp.AttributeValue(chromedp.CSS("#score"), "data-score")).Value
	cookies := run(t, ctx, chromedp.Evaluate[string](`document.cookie`))
	if err := chromedp.Do(ctx, chromedp.Navigate(protURL), chromedp.WaitVisible(chromedp.CSS("#score"))); err != nil {
		t.Fatalf("reload after unlocking: %v", err)
	}
	afterReload := run(t, ctx, chromedp.Text(chromedp.CSS("#url")))
	if !strings.Contains(errText, "Wrong password") || unlockedScore != strconv.Itoa(prot.Score) || afterReload != "https://example.com/p" {
		t.Errorf("password flow: error %q, score %q, after reload %q", errText, unlockedScore, afterReload)
	}
	if cookies != "" {
		t.Errorf("document.cookie = %q: the unlock cookie must be HttpOnly", cookies)
	}
}

// run runs one browser action and returns its value, failing the test on
// error.
func run[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("browser: %v", err)
	}
	return v
}
