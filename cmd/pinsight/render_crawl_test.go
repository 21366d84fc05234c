package main

import (
	"encoding/csv"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"

	"github.com/pinsight/pinsight/adapters/httpapi"
)

// TestRenderedCrawlOverHTTP crawls a loopback single-page application
// with render auto in the real server and a real Chromium: every page is
// a shell whose links exist only once its script ran, so the crawl
// reaches /shoes/men and /shoes/women only by rendering (found_by_js),
// audits the pages as rendered, finds content_needs_js, counts the pages
// rendered, and a page's read carries its rendering.
func TestRenderedCrawlOverHTTP(t *testing.T) {
	app := spaServer(t, "/", "/shoes", "/shoes/men", "/shoes/women")
	cfg := jobsServeConfig("sqlite:"+filepath.Join(t.TempDir(), "p.db"), 10*time.Second)
	cfg.Site.Fetch.AllowPrivate = false
	cfg.Site.Fetch.AllowTargets = []string{hostOf(t, app.URL)}
	var srv *httpapi.Server
	a := fxtest.New(t, mustOptions(t, cfg), fx.Populate(&srv))
	a.RequireStart()
	defer a.RequireStop()
	c := newUser(t, "http://"+srv.Addr(), "render-crawl@example.com")
	requireRenderer(t, c)
	var created struct {
		Data struct {
			ID       int64 `json:"id"`
			Settings struct {
				Render string `json:"render"`
			} `json:"settings"`
		}
	}
	if st, raw := c.call(http.MethodPost, "/api/v1/crawls", map[string]any{"url": app.URL + "/", "max_pages": 20, "render": "auto"}, &created); st != http.StatusAccepted || created.Data.Settings.Render != "auto" {
		t.Fatalf("POST /crawls render auto = %d %s", st, raw)
	}
	id := created.Data.ID
	deadline := time.Now().Add(3 * time.Minute)
	for c.crawl(id).Status == "queued" || c.crawl(id).Status == "running" {
		if time.Now().After(deadline) {
			t.Fatalf("crawl %d not finished after 3 minutes: %+v", id, c.crawl(id))
		}
		time.Sleep(200 * time.Millisecond)
	}
	var done struct {
		Data struct {
			Status    string `json:"status"`
			Rendering []struct {
				Rendered bool   `json:"rendered"`
				Reason   string `json:"reason"`
				Pages    int    `json:"pages"`
			} `json:"rendering"`
			Issues []struct {
				Type  string `json:"type"`
				Count int    `json:"count"`
			} `json:"issues"`
		}
	}
	if st, raw := c.call(http.MethodGet, "/api/v1/crawls/"+itoa(id), nil, &done); st != http.StatusOK || done.Data.Status != "finished" {
		t.Fatalf("crawl = %d %s", st, raw)
	}
	rendered := 0
	for _, r := range done.Data.Rendering {
		if r.Rendered {
			rendered += r.Pages
		}
	}
	if rendered != 4 {
		t.Errorf("rendering = %+v; want the 4 shells rendered", done.Data.Rendering)
	}
	needsJS := 0
	for _, is := range done.Data.Issues {
		if is.Type == "content_needs_js" {
			needsJS = is.Count
		}
	}
	if needsJS != 4 {
		t.Errorf("issues = %+v; want content_needs_js on the 4 pages", done.Data.Issues)
	}
	var pages struct {
		Data struct {
			Pages []struct {
				ID           int64  `json:"id"`
				URL          string `json:"url"`
				Title        string `json:"title"`
				Rendered     bool   `json:"rendered"`
				RenderReason string `json:"render_reason"`
				FoundByJS    bool   `json:"found_by_js"`
			} `json:"pages"`
		}
	}
	if st, raw := c.call(http.MethodGet, "/api/v1/crawls/"+itoa(id)+"/pages?per_page=25", nil, &pages); st != http.StatusOK {
		t.Fatalf("pages = %d %s", st, raw)
	}
	seen := map[string]bool{}
	var home int64
	for _, p := range pages.Data.Pages {
		path := strings.TrimPrefix(p.URL, app.URL)
		if strings.HasSuffix(path, ".js") {
			continue
		}
		seen[path] = true
		if !p.Rendered || p.Title != "Trail shoes | Acme" {
			t.Errorf("page %s: rendered %v (%s), title %q; want rendered with the script's title", path, p.Rendered, p.RenderReason, p.Title)
		}
		if want := path == "/shoes/men" || path == "/shoes/women"; p.FoundByJS != want {
			t.Errorf("page %s: found_by_js %v, want %v", path, p.FoundByJS, want)
		}
		if path == "/" {
			home = p.ID
		}
	}
	for _, p := range []string{"/", "/shoes", "/shoes/men", "/shoes/women"} {
		if !seen[p] {
			t.Errorf("page %s not crawled (crawled: %v)", p, seen)
		}
	}
	// The CSV export carries the same: rendered, render_reason, found_by_js.
	_, _, raw := c.callHeader(http.MethodGet, "/api/v1/crawls/"+itoa(id)+"/export?what=pages&format=csv", nil, nil)
	recs, err := csv.NewReader(strings.NewReader(raw)).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("pages export = %v %.300s", err, raw)
	}
	col := map[string]int{}
	for i, name := range recs[0] {
		col[name] = i
	}
	for _, name := range []string{"url", "rendered", "render_reason", "found_by_js"} {
		if _, ok := col[name]; !ok {
			t.Fatalf("pages export header %v lacks %s", recs[0], name)
		}
	}
	for _, rec := range recs[1:] {
		path := strings.TrimPrefix(rec[col["url"]], app.URL)
		if strings.HasSuffix(path, ".js") {
			continue
		}
		js := strconv.FormatBool(path == "/shoes/men" || path == "/shoes/women")
		if rec[col["rendered"]] != "true" || rec[col["render_reason"]] == "" || rec[col["found_by_js"]] != js {
			t.Errorf("export row %s: rendered %q, render_reason %q, found_by_js %q; want true, a reason, %s",
				path, rec[col["rendered"]], rec[col["render_reason"]], rec[col["found_by_js"]], js)
		}
	}
	var one struct {
		Data struct {
			Rendering *struct {
				Rendered         bool `json:"rendered"`
				ContentAddedByJS bool `json:"content_added_by_js"`
			} `json:"rendering"`
		}
	}
	if st, raw := c.call(http.MethodGet, "/api/v1/crawls/"+itoa(id)+"/pages/"+itoa(home), nil, &one); st != http.StatusOK ||
		one.Data.Rendering == nil || !one.Data.Rendering.Rendered || !one.Data.Rendering.ContentAddedByJS {
		t.Errorf("page / = %d %s; want its rendering", st, raw)
	}
}
