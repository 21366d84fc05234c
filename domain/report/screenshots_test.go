package report_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/pinsight/pinsight/domain/report"
)

// TestScreenshotsBounded: a report keeps a JPEG within its kind's cap, a
// copy of it; an empty, over-cap or non-JPEG image is dropped whole.
func TestScreenshotsBounded(t *testing.T) {
	jpeg := func(n int) []byte {
		b := make([]byte, n)
		copy(b, []byte{0xFF, 0xD8, 0xFF})
		return b
	}
	view := jpeg(report.MaxViewportShot)
	s := report.Screenshots{Viewport: view, Full: jpeg(report.MaxFullShot + 1)}.Bounded()
	if !bytes.Equal(s.Viewport, view) || s.Full != nil || !slices.Equal(s.Kinds(), []report.ScreenshotKind{report.ShotViewport}) {
		t.Errorf("bounded: %d, %d bytes, kinds %v; want the viewport's alone", len(s.Viewport), len(s.Full), s.Kinds())
	}
	view[3] = 1
	if s.Viewport[3] == 1 {
		t.Error("Bounded kept the caller's slice, not a copy")
	}
	if s := (report.Screenshots{Viewport: jpeg(report.MaxViewportShot + 1), Full: []byte("<svg onload=alert(1)>")}).Bounded(); len(s.Kinds()) != 0 {
		t.Errorf("an over-cap and a non-JPEG image: kinds %v, want none", s.Kinds())
	}
	for _, kinds := range [][]report.ScreenshotKind{nil, {report.ShotViewport}, {report.ShotFull}, {report.ShotViewport, report.ShotFull}} {
		if got := report.ParseKindsText(report.KindsText(kinds)); !slices.Equal(got, kinds) {
			t.Errorf("kinds %v read back as %v", kinds, got)
		}
	}
	if m, ok := report.ParseScreenshotMode(""); !ok || m != report.ScreenshotViewport {
		t.Errorf(`mode "" = %q, %v; want viewport`, m, ok)
	}
	if _, ok := report.ParseScreenshotMode("huge"); ok {
		t.Error("mode huge accepted")
	}
}
