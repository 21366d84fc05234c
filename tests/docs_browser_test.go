package tests

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/pinsight/pinsight/adapters/httpapi"
)

// TestDocsOffline: the API reference page renders in headless Chromium
// with every request outside the test server failed by the browser, so it
// needs nothing from a CDN; it follows the handler's base path.
func TestDocsOffline(t *testing.T) {
	browser := findChromium()
	if browser == "" {
		t.Skip("no chromium binary (apt-get install chromium, or set PINSIGHT_CHROMIUM): browser test skipped")
	}
	api, err := httpapi.Handler(httpapi.HandlerOptions{BasePath: "/geo"})
	if err != nil {
		t.Fatal(err)
	}
	host := http.NewServeMux()
	host.Handle("/geo/", api)
	srv := httptest.NewServer(host)
	defer srv.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()

	// Every request pauses; those for the test server go on, any other is
	// failed as if the network were unplugged, and remembered.
	var (
		mu               sync.Mutex
		allowed, blocked []string
	)
	paused := chromedp.Events(ctx, fetch.RequestPaused)
	go func() {
		for ev, err := range paused {
			if err != nil {
				return
			}
			mu.Lock()
			if strings.HasPrefix(ev.Request.URL, srv.URL+"/") {
				allowed = append(allowed, ev.Request.URL)
				mu.Unlock()
				_, _ = chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
				continue
			}
			blocked = append(blocked, ev.Request.URL)
			mu.Unlock()
			_, _ = chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
		}
	}()
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{}); err != nil {
		t.Fatalf("Fetch.enable: %v", err)
	}

	tctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute) // far above the seconds a page takes, for a loaded machine
	defer cancelTime()
	err = chromedp.Do(tctx, chromedp.Navigate(srv.URL+"/geo/docs"), chromedp.WaitVisible(chromedp.CSS(".opblock-summary-description")))
	mu.Lock()
	defer mu.Unlock()
	if len(blocked) > 0 {
		t.Errorf("the page asked for %d resources outside the server: %v", len(blocked), blocked)
	}
	if err != nil {
		t.Fatalf("the operations did not render (requests served: %v): %v", allowed, err)
	}
	summaries := run(t, ctx, chromedp.Evaluate[string](`[...document.querySelectorAll(".opblock-summary-description")].map(e => e.textContent).join("\n")`))
	if !strings.Contains(summaries, "Encode a point as a DIGIPIN") {
		t.Errorf("the page lists no DIGIPIN encode operation:\n%s", summaries)
	}
	var sawScript, sawDocument bool
	for _, u := range allowed {
		sawScript = sawScript || strings.HasPrefix(u, srv.URL+"/geo/docs/") && strings.HasSuffix(u, ".js")
		sawDocument = sawDocument || strings.HasPrefix(u, srv.URL+"/geo/openapi.json")
	}
	if !sawScript || !sawDocument {
		t.Errorf("the page did not load its script and the document under /geo: %v", allowed)
	}
}
