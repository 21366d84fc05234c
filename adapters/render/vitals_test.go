package render

import (
	"strings"
	"testing"
	"time"
)

// TestLayoutShiftAndSlowLCP: a late banner shifts the content (CLS over
// 0.1) and the largest element is an image the server holds for 1.2 s (LCP
// at least that, its snippet the image's tag).
func TestLayoutShiftAndSlowLCP(t *testing.T) {
	fx := newFixtures(t)
	r := newTestRenderer(t, Config{}, fx.host())
	got, err := render(t, r, fx.url("/vitals.html"), nil)
	if err != nil {
		t.Fatal(err)
	}
	tm := got.Timing
	t.Logf("timing %+v", tm)
	if tm.CLS <= 0.1 {
		t.Errorf("CLS %.3f, want over 0.1", tm.CLS)
	}
	if tm.LCP < 1200*time.Millisecond {
		t.Errorf("LCP %v, want at least the image's 1.2 s delay", tm.LCP)
	}
	if !strings.HasPrefix(tm.LCPElement, `<img id="hero"`) {
		t.Errorf("LCP element %q, want the hero image", tm.LCPElement)
	}
	if tm.FCP <= 0 || tm.FCP > tm.LCP || tm.TTFB <= 0 || tm.TTFB > tm.FCP {
		t.Errorf("TTFB %v, FCP %v, LCP %v: want 0 < TTFB <= FCP <= LCP", tm.TTFB, tm.FCP, tm.LCP)
	}
}
