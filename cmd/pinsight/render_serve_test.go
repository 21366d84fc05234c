package main

import (
	_ "embed"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/httpapi"
)

var (
	//go:embed testdata/spa.html
	spaHTML string
	//go:embed testdata/app.js
	spaJS string
)

// renderedReportJSON is the part of a rendered report the test reads.
type renderedReportJSON struct {
	reportJSON
	Render    string `json:"render"`
	Rendered  bool   `json:"rendered"`
	Rendering *struct {
		Rendered         bool   `json:"rendered"`
		Reason           string `json:"reason"`
		TitleChanged     bool   `json:"title_changed"`
		CanonicalChanged bool   `json:"canonical_changed"`
		ContentAddedByJS bool   `json:"content_added_by_js"`
		LinksAddedByJS   bool   `json:"links_added_by_js"`
	} `json:"rendering"`
	Results map[string][]struct {
		ID    string `json:"id"`
		Value any    `json:"value"`
	} `json:"results"`
	Screenshots *struct {
		Viewport string `json:"viewport"`
		Full     string `json:"full"`
	} `json:"screenshots"`
}

// titleOf is the value of the report's title check.
func (r renderedReportJSON) titleOf() any {
	for _, c := range r.Results["seo"] {
		if c.ID == "title" {
			return c.Value
		}
	}
	return nil
}

// readiness is the renderer's state in /readyz of the server at base.
func rendererState(t *testing.T, c *apiClient) (ready bool, state string) {
	t.Helper()
	var env struct {
		Data struct {
			Ready      bool `json:"ready"`
			Components []struct {
				Name, State string
			} `json:"components"`
		} `json:"data"`
	}
	if st, raw := c.call(http.MethodGet, "/readyz", nil, &env); st != http.StatusOK {
		t.Fatalf("/readyz = %d %s", st, raw)
	}
	for _, comp := range env.Data.Components {
		if comp.Name == "renderer" {
			return env.Data.Ready, comp.State
		}
	}
	t.Fatalf("/readyz lists no renderer: %+v", env.Data.Components)
	return false, ""
}

// spaServer serves the fixture single-page application (testdata): its
// shell at each of paths, its script at /app.js, 404 elsewhere.
func spaServer(t *testing.T, paths ...string) *httptest.Server {
	t.Helper()
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/app.js":
			w.Header().Set("Content-Type", "text/javascript")
			_, _ = w.Write([]byte(spaJS))
		case slices.Contains(paths, r.URL.Path):
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(spaHTML))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(app.Close)
	return app
}

// requireRenderer skips the test when the server at c cannot render (no
// Chromium), as the container tests skip without Docker; with
// PINSIGHT_REQUIRE_CHROMIUM set (CI), that fails it instead.
func requireRenderer(t *testing.T, c *apiClient) {
	t.Helper()
	if ready, state := rendererState(t, c); state != "ready" {
		if os.Getenv("PINSIGHT_REQUIRE_CHROMIUM") != "" {
			t.Fatalf("renderer %s (ready %v) with PINSIGHT_REQUIRE_CHROMIUM set", state, ready)
		}
		t.Skip("no chromium binary (apt-get install chromium, or set PINSIGHT_CHROMIUM): rendering tests skipped")
	}
}

// TestRenderedReportOverHTTP: the server renders a single-page application
// in Chromium when asked (render on), auditing what its script built (the
// title, canonical, content and links), says so and why; auto renders the
// shell too, and a re-analysis with render off audits the shell again.
// The rendered report keeps the browser's JPEG of the first screen (and
// of the whole page with screenshot=full), served to its owner, gone
// after the re-analysis with render off.
func TestRenderedReportOverHTTP(t *testing.T) {
	app := spaServer(t, "/", "/shoes")
	cfg := jobsServeConfig("sqlite:"+filepath.Join(t.TempDir(), "p.db"), 10*time.Second)
	var srv *httpapi.Server
	a := fxtest.New(t, mustOptions(t, cfg), fx.Populate(&srv))
	a.RequireStart()
	defer a.RequireStop()
	c := newUser(t, "http://"+srv.Addr(), "render@example.com")
	requireRenderer(t, c)

	var on struct{ Data renderedReportJSON }
	if st, raw := c.call(http.MethodPost, "/api/v1/reports?wait=60", map[string]any{"url": app.URL + "/", "render": "on"}, &on); st != http.StatusCreated {
		t.Fatalf("render on = %d %s", st, raw)
	}
	r := on.Data
	if !r.Rendered || r.Render != "on" || r.Rendering == nil || r.Rendering.Reason != "requested" || r.titleOf() != "Trail shoes | Acme" {
		t.Fatalf("render on: rendered %v, render %q, rendering %+v, title %v; want the title the script set", r.Rendered, r.Render, r.Rendering, r.titleOf())
	}
	if !r.Rendering.TitleChanged || !r.Rendering.CanonicalChanged || !r.Rendering.ContentAddedByJS || !r.Rendering.LinksAddedByJS {
		t.Errorf("render on: rendering %+v, want the title, canonical, content and links flagged as added by the script", r.Rendering)
	}
	shot := func(path string) int {
		t.Helper()
		st, h, body := c.callHeader(http.MethodGet, path, nil, nil)
		if st == http.StatusOK && (h.Get("Content-Type") != "image/jpeg" || !strings.HasPrefix(body, "\xff\xd8\xff")) {
			t.Errorf("GET %s: %s, %d bytes starting %q; want a JPEG", path, h.Get("Content-Type"), len(body), body[:min(len(body), 4)])
		}
		return st
	}
	if r.Screenshots == nil || r.Screenshots.Viewport == "" || r.Screenshots.Full != "" {
		t.Fatalf("render on: screenshots %+v; want the first screen's alone", r.Screenshots)
	}
	if st := shot(r.Screenshots.Viewport); st != http.StatusOK {
		t.Errorf("GET the first screen's screenshot = %d", st)
	}
	var full struct{ Data renderedReportJSON }
	if st, raw := c.call(http.MethodPost, "/api/v1/reports?wait=60", map[string]any{"url": app.URL + "/shoes", "render": "on", "screenshot": "full"}, &full); st != http.StatusCreated ||
		full.Data.Screenshots == nil || full.Data.Screenshots.Full == "" {
		t.Errorf("screenshot=full = %d, screenshots %+v (%s); want the whole page's too", st, full.Data.Screenshots, raw)
	} else if st := shot(full.Data.Screenshots.Full); st != http.StatusOK {
		t.Errorf("GET the whole page's screenshot = %d", st)
	}
	var auto struct{ Data renderedReportJSON }
	if st, raw := c.call(http.MethodPost, "/api/v1/reports?wait=60", map[string]any{"url": app.URL + "/", "render": "auto"}, &auto); st != http.StatusCreated ||
		!auto.Data.Rendered || auto.Data.Rendering.Reason == "requested" {
		t.Errorf("render auto on a shell = %d, rendered %v, rendering %+v (%s); want rendered with the rule's reason", st, auto.Data.Rendered, auto.Data.Rendering, raw)
	}
	var off struct{ Data renderedReportJSON }
	if st, raw := c.call(http.MethodPut, "/api/v1/reports/"+itoa(r.ID)+"?wait=60", map[string]any{"results": 1, "render": "off"}, &off); st != http.StatusOK ||
		off.Data.Rendered || off.Data.Rendering != nil || off.Data.titleOf() != "Loading…" {
		t.Errorf("re-analysis with render off = %d, rendered %v, rendering %+v, title %v (%s); want the shell's own title", st, off.Data.Rendered, off.Data.Rendering, off.Data.titleOf(), raw)
	}
	if st := shot(r.Screenshots.Viewport); off.Data.Screenshots != nil || st != http.StatusNotFound {
		t.Errorf("after the re-analysis with render off: screenshots %+v, GET = %d; want none, 404", off.Data.Screenshots, st)
	}
	if st, raw := c.call(http.MethodPut, "/api/v1/reports/"+itoa(r.ID), map[string]any{"render": "on"}, nil); st != http.StatusUnprocessableEntity || !strings.Contains(raw, "reanalyze") && !strings.Contains(raw, "results") {
		t.Errorf("render without results=1 = %d %s, want 422 on render", st, raw)
	}
}

// TestRenderWithoutChromium: a server whose browser cannot be found
// refuses render on with a 422 naming what to install, audits render auto
// as served (saying why), and stays ready with the renderer unavailable.
func TestRenderWithoutChromium(t *testing.T) {
	fixture := newFixtureSite(t, 0)
	cfg := jobsServeConfig("sqlite:"+filepath.Join(t.TempDir(), "p.db"), 5*time.Second)
	cfg.Site.Render.Browser.Chromium = filepath.Join(t.TempDir(), "no-such-chromium")
	var srv *httpapi.Server
	a := fxtest.New(t, mustOptions(t, cfg), fx.Populate(&srv))
	a.RequireStart()
	defer a.RequireStop()
	c := newUser(t, "http://"+srv.Addr(), "norender@example.com")
	if ready, state := rendererState(t, c); !ready || state != "unavailable" {
		t.Errorf("/readyz: ready %v, renderer %s; want ready with the renderer unavailable", ready, state)
	}
	st, raw := c.call(http.MethodPost, "/api/v1/reports", map[string]any{"url": fixture.URL + "/fast", "render": "on"}, nil)
	if st != http.StatusUnprocessableEntity || !strings.Contains(raw, `"render"`) || !strings.Contains(raw, "apt-get install chromium") {
		t.Errorf("render on without chromium = %d %s, want 422 on render naming what to install", st, raw)
	}
	var auto struct{ Data renderedReportJSON }
	if st, raw := c.call(http.MethodPost, "/api/v1/reports?wait=30", map[string]any{"url": fixture.URL + "/fast", "render": "auto"}, &auto); st != http.StatusCreated ||
		auto.Data.Rendered || auto.Data.Rendering == nil || auto.Data.Rendering.Reason == "" {
		t.Errorf("render auto without chromium = %d, rendering %+v (%s); want generated, not rendered, with a reason", st, auto.Data.Rendering, raw)
	}
}
