package porttest

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// fetchSite serves the pages TestPageFetcher fetches: / (HTML naming a
// canonical URL that redirects back to it and a Hindi alternate), /hi,
// /error (500, plain text), /moved (302 to /), /robots.txt and 404 for
// the rest.
func fetchSite(t *testing.T) *httptest.Server {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		html := func(body string) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte("<!doctype html><html><head>" + body + "</head><body><h1>Hello</h1></body></html>"))
		}
		switch r.URL.Path {
		case "/":
			html(`<title>Home</title><link rel="canonical" href="` + srv.URL + `/canonical">` +
				`<link rel="alternate" hreflang="hi" href="` + srv.URL + `/hi">`)
		case "/hi":
			html(`<title>Hindi</title><link rel="alternate" hreflang="en" href="` + srv.URL + `/">`)
		case "/canonical":
			http.Redirect(w, r, "/", http.StatusMovedPermanently)
		case "/error":
			http.Error(w, "broken", http.StatusInternalServerError)
		case "/moved":
			http.Redirect(w, r, "/", http.StatusFound)
		case "/robots.txt":
			_, _ = w.Write([]byte("User-agent: *\nAllow: /\n"))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// hangingSite serves an HTML page whose robots.txt and every other path
// never answer (until the test ends).
func hangingSite(t *testing.T) *httptest.Server {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte("<title>Slow neighbours</title>"))
			return
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	return srv
}

// targets is a ports.Admit recording what it is asked, refusing everything
// once refuse is set.
type targets struct {
	mu     sync.Mutex
	asked  []ports.Target
	refuse error
}

func (a *targets) admit(_ context.Context, t ports.Target) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, t)
	return a.refuse
}

// TestPageFetcher checks a PageFetcher against pages served on 127.0.0.1.
// newFetcher must return a fetcher that lets through the host:port
// targets in allow despite any guard against private addresses (those
// test servers); every other private target stays refused.
func TestPageFetcher(t *testing.T, newFetcher func(t *testing.T, allow []string) ports.PageFetcher) {
	srv, slow, gone := fetchSite(t), hangingSite(t), httptest.NewServer(http.NotFoundHandler())
	gone.Close() // allowed, but nothing listens there any more
	allow := []string{hostOf(srv.URL), hostOf(slow.URL), hostOf(gone.URL)}
	f := newFetcher(t, allow)
	ctx := context.Background()

	t.Run("HTML page with its follow-ups", func(t *testing.T) {
		got, err := f.Fetch(ctx, srv.URL+"/", nil)
		if err != nil {
			t.Fatalf("Fetch = %v", err)
		}
		if got.RequestedURL != srv.URL+"/" || got.FinalURL() != srv.URL+"/" || got.Page.Status != 200 || got.Document == nil {
			t.Errorf("page = requested %q, final %q, status %d, parsed %v", got.RequestedURL, got.FinalURL(), got.Page.Status, got.Document != nil)
		}
		if got.Robots == nil || got.Robots.Status != 200 || !strings.Contains(string(got.Robots.Body), "User-agent") {
			t.Errorf("robots.txt = %+v, want the served file", got.Robots)
		}
		if got.NotFound == nil || got.NotFound.Status != 404 {
			t.Errorf("probe of a random path = %+v, want a 404", got.NotFound)
		}
		if c := got.Canonical; c == nil || c.URL != srv.URL+"/canonical" || c.Response == nil || c.Response.Status != http.StatusMovedPermanently {
			t.Errorf("canonical = %+v, want %s/canonical answered 301 (not followed)", c, srv.URL)
		}
		if len(got.Alternates) != 1 || got.Alternates[0].URL != srv.URL+"/hi" || got.Alternates[0].Response == nil ||
			got.Alternates[0].Response.Status != 200 || got.Alternates[0].Document == nil {
			t.Errorf("alternates = %+v, want %s/hi, answered and parsed", got.Alternates, srv.URL)
		}
	})
	t.Run("any status is an answer", func(t *testing.T) {
		got, err := f.Fetch(ctx, srv.URL+"/error", nil)
		if err != nil || got.Page.Status != 500 || got.Document != nil {
			t.Errorf("Fetch(/error) = %+v, %v; want status 500, not parsed (plain text)", got, err)
		}
	})
	t.Run("redirects followed", func(t *testing.T) {
		got, err := f.Fetch(ctx, srv.URL+"/moved", nil)
		if err != nil || got.RequestedURL != srv.URL+"/moved" || got.FinalURL() != srv.URL+"/" || got.Page.Status != 200 {
			t.Errorf("Fetch(/moved) = %v; requested %q, final %q", err, got.RequestedURL, got.FinalURL())
		}
	})
	t.Run("no answer is a FetchError", func(t *testing.T) {
		_, err := f.Fetch(ctx, gone.URL+"/", nil)
		var fe *webpage.FetchError
		if !errors.As(err, &fe) {
			t.Errorf("Fetch of a closed port = %v, want a *webpage.FetchError", err)
		}
	})
	t.Run("refused targets are FetchErrors", func(t *testing.T) {
		for _, target := range []string{"ftp://" + hostOf(srv.URL) + "/", "http://127.0.0.1:1/", "http://[::1]:1/"} {
			_, err := f.Fetch(ctx, target, nil)
			var fe *webpage.FetchError
			if !errors.As(err, &fe) {
				t.Errorf("Fetch(%s) = %v, want a *webpage.FetchError", target, err)
			}
		}
	})
	t.Run("secondary requests never fail the fetch", func(t *testing.T) {
		short, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		got, err := f.Fetch(short, slow.URL+"/", nil)
		if err != nil || got.Page.Status != 200 || got.Robots != nil {
			t.Errorf("Fetch with robots.txt never answering = %v (robots %+v), want the page without robots.txt", err, got)
		}
	})
	t.Run("admit is asked, its refusal returned as is", func(t *testing.T) {
		a := &targets{}
		if _, err := f.Fetch(ctx, srv.URL+"/", a.admit); err != nil {
			t.Fatalf("Fetch = %v", err)
		}
		a.mu.Lock()
		asked := append([]ports.Target(nil), a.asked...)
		a.mu.Unlock()
		if len(asked) == 0 {
			t.Fatal("admit was never asked")
		}
		for _, tg := range asked {
			if tg.Host != "127.0.0.1" || tg.Addr != netip.MustParseAddr("127.0.0.1") {
				t.Errorf("admit asked for %+v, want 127.0.0.1", tg)
			}
		}
		errBusy := errors.New("throttled by the suite")
		a = &targets{refuse: errBusy}
		_, err := f.Fetch(ctx, srv.URL+"/", a.admit)
		var fe *webpage.FetchError
		if !errors.Is(err, errBusy) || errors.As(err, &fe) {
			t.Errorf("Fetch refused by admit = %v, want the admit's error, not a FetchError", err)
		}
	})
}

// hostOf is the host:port of a server URL.
func hostOf(serverURL string) string {
	return strings.TrimPrefix(serverURL, "http://")
}
