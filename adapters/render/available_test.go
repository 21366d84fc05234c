package render

import (
	"context"
	"errors"
	"testing"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/ports"
)

// TestNoBinaryIsNoBrowser: a renderer without a binary says so, wrapping
// ports.ErrNoBrowser, in Available and in Render, and starts nothing.
func TestNoBinaryIsNoBrowser(t *testing.T) {
	f, err := fetch.New(fetch.Config{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(Config{Chromium: "/nonexistent/chromium"}, f)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.Available(); !errors.Is(err, ports.ErrNoBrowser) {
		t.Errorf("Available = %v, want ErrNoBrowser", err)
	}
	if _, err := r.Render(context.Background(), "https://example.com/", ports.RenderOptions{}, nil); !errors.Is(err, ports.ErrNoBrowser) {
		t.Errorf("Render = %v, want ErrNoBrowser", err)
	}
	if _, err := New(Config{}, nil); err == nil {
		t.Error("New without a guard: want an error")
	}
}

// TestFullPageScreenshot: asked for, the full page's JPEG comes besides
// the viewport's, within its cap.
func TestFullPageScreenshot(t *testing.T) {
	fx := newFixtures(t)
	r := newTestRenderer(t, Config{}, fx.host())
	if err := r.Available(); err != nil {
		t.Fatalf("Available = %v", err)
	}
	got, err := r.Render(context.Background(), fx.url("/vitals.html"), ports.RenderOptions{FullPage: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.FullPage) < 100 || string(got.FullPage[:2]) != "\xff\xd8" || len(got.FullPage) > DefaultMaxFullPage {
		t.Errorf("full page of %d bytes, want a JPEG within the cap", len(got.FullPage))
	}
	if len(got.Screenshot) == 0 {
		t.Error("no viewport screenshot")
	}
}
