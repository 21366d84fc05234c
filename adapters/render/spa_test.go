package render

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/ports"
)

// TestSinglePageAppIsRendered: the title, canonical, body text and links a
// script sets are in the rendered DOM, parsed as the fetcher parses pages.
func TestSinglePageAppIsRendered(t *testing.T) {
	fx := newFixtures(t)
	r := newTestRenderer(t, Config{}, fx.host())
	got, err := render(t, r, fx.url("/spa.html"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != 200 || got.URL != fx.url("/spa.html") || !got.Settled {
		t.Errorf("status %d, URL %s, settled %v; want 200, the page, settled", got.Status, got.URL, got.Settled)
	}
	if !strings.HasPrefix(string(got.HTML), "<!DOCTYPE html><html") {
		t.Errorf("HTML starts %.40q, want the doctype then <html", got.HTML)
	}
	if title := textOf(find(got.Document, "title")); title != "Rendered by script" {
		t.Errorf("title %q, want the script's", title)
	}
	var canonical string
	for _, l := range all(got.Document, "link") {
		if attr(l, "rel") == "canonical" {
			canonical = attr(l, "href")
		}
	}
	if canonical != fx.url("/canonical-page") {
		t.Errorf("canonical %q, want the script's", canonical)
	}
	if body := textOf(find(got.Document, "body")); !strings.Contains(body, "Body text the server never sent.") {
		t.Errorf("body text %q lacks the script's", body)
	}
	if links := all(got.Document, "a"); len(links) != 2 || attr(links[0], "href") != "/first" {
		t.Errorf("links %v, want the script's two", links)
	}
	if len(got.Requests) < 2 || got.Requests[0].Type != "document" || got.Requests[0].URL != fx.url("/spa.html") {
		t.Fatalf("requests %+v, want the document first", got.Requests)
	}
	var script bool
	for _, q := range got.Requests {
		if q.URL == fx.url("/spa.js") && q.Type == "script" && q.Status == 200 && q.Bytes > 0 {
			script = true
		}
	}
	if !script {
		t.Errorf("requests %+v lack the script, with its status and bytes", got.Requests)
	}
	if len(got.Screenshot) < 100 || string(got.Screenshot[:2]) != "\xff\xd8" || len(got.Screenshot) > DefaultMaxScreenshot {
		t.Errorf("screenshot of %d bytes, want a JPEG within the cap", len(got.Screenshot))
	}
	if got.Timing.DOMNodes < 8 || got.Timing.Bytes <= 0 || got.Timing.TTFB <= 0 {
		t.Errorf("timing %+v, want nodes, bytes and TTFB", got.Timing)
	}
}

// TestNoScreenshotTakesNone: a render asked for no screenshot (a crawl's
// page) has the rendered document and no screenshot, not even with
// FullPage.
func TestNoScreenshotTakesNone(t *testing.T) {
	fx := newFixtures(t)
	r := newTestRenderer(t, Config{}, fx.host())
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	got, err := r.Render(ctx, fx.url("/spa.html"), ports.RenderOptions{NoScreenshot: true, FullPage: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Screenshot) != 0 || len(got.FullPage) != 0 {
		t.Errorf("screenshots of %d and %d bytes, want none", len(got.Screenshot), len(got.FullPage))
	}
	if body := textOf(find(got.Document, "body")); !strings.Contains(body, "Body text the server never sent.") {
		t.Errorf("body text %q lacks the script's", body)
	}
}
