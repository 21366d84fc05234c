package render

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// TestCanaryIsNeverReached: a page that is allowed references, every way a
// page can (images, scripts, frames, stylesheets, fetch, XHR, websockets,
// a beacon, a redirect, prefetch, preconnect), a loopback server that is
// not allowed, and files: nothing reaches the canary, and the refusals are
// recorded.
func TestCanaryIsNeverReached(t *testing.T) {
	fx := newFixtures(t)
	c := newCanary(t)
	fx.canary = c.host()
	r := newTestRenderer(t, Config{}, fx.host())
	got, err := render(t, r, fx.url("/canary.html"), nil)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // a late request would have landed by now
	if n := c.hits.Load(); n != 0 {
		t.Fatalf("the canary was reached %d times (last %v)", n, c.last.Load())
	}
	refused := map[string]webpage.Request{}
	for _, q := range got.Requests {
		t.Logf("%-9s %-60s status %d refused %v %s", q.Type, q.URL, q.Status, q.Refused, q.Failed)
		if q.Refused {
			refused[q.URL] = q
		}
	}
	for _, path := range []string{"/image.png", "/script.js", "/style.css", "/frame", "/fetch", "/xhr", "/redirected"} {
		q, ok := refused["http://"+c.host()+path]
		if !ok {
			t.Errorf("%s is not recorded as refused", path)
			continue
		}
		if !strings.Contains(q.Failed, "not a public address") || q.Status != 0 {
			t.Errorf("%s refused with %q, status %d; want the guard's reason and no status", path, q.Failed, q.Status)
		}
	}
	var tls, ws bool
	for u := range refused {
		tls = tls || strings.HasPrefix(u, "https://"+c.host())
		ws = ws || strings.HasPrefix(u, "ws://"+c.host())
	}
	if !tls || !ws {
		t.Errorf("refused %v: want the https and the websocket requests among them", keys(refused))
	}
	if strings.Contains(string(got.HTML), "root:") {
		t.Error("the page shows /etc/passwd")
	}
}

// TestMainRedirectToCanaryIsRefused: the page redirects to the canary:
// the render is a refusal, and the canary is not reached.
func TestMainRedirectToCanaryIsRefused(t *testing.T) {
	fx := newFixtures(t)
	c := newCanary(t)
	fx.canary = c.host()
	r := newTestRenderer(t, Config{}, fx.host())
	_, err := render(t, r, fx.url("/redirect-to-canary"), nil)
	var fe *webpage.FetchError
	if !errors.As(err, &fe) || !fe.Refused || !strings.Contains(fe.Reason, "not a public address") {
		t.Fatalf("err = %v, want a refusal saying the address is not public", err)
	}
	// Asked directly, the canary is refused before the browser is asked.
	if _, err := render(t, r, "http://"+c.host()+"/direct", nil); !errors.As(err, &fe) || !fe.Refused {
		t.Errorf("the canary asked directly: err = %v, want a refusal", err)
	}
	if _, err := render(t, r, "file:///etc/passwd", nil); !errors.As(err, &fe) || !fe.Refused {
		t.Errorf("a file: URL: err = %v, want a refusal", err)
	}
	if n := c.hits.Load(); n != 0 {
		t.Fatalf("the canary was reached %d times", n)
	}
}

// TestAdmitErrorOfTheMainDocument: admit's error stops the render and is
// returned as it is.
func TestAdmitErrorOfTheMainDocument(t *testing.T) {
	fx := newFixtures(t)
	r := newTestRenderer(t, Config{}, fx.host())
	stop := errors.New("throttled")
	_, err := render(t, r, fx.url("/spa.html"), func(context.Context, ports.Target) error { return stop })
	if err != stop {
		t.Fatalf("err = %v, want admit's error as it is", err)
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
