package report

import (
	"bytes"
	"strings"
	"time"

	"github.com/pinsight/pinsight/domain/fault"
	"github.com/pinsight/pinsight/domain/pagecheck"
)

// ScreenshotMode says which screenshots a report's rendered analyses keep.
type ScreenshotMode string

// Screenshot modes. "" reads as ScreenshotViewport.
const (
	// ScreenshotViewport keeps the first screen's (the default).
	ScreenshotViewport ScreenshotMode = "viewport"
	// ScreenshotFull keeps the whole page's too.
	ScreenshotFull ScreenshotMode = "full"
)

// ScreenshotModesText is the modes as a validation message lists them.
const ScreenshotModesText = "viewport or full"

// ParseScreenshotMode accepts viewport and full ("" is viewport); ok is
// false for anything else.
func ParseScreenshotMode(s string) (m ScreenshotMode, ok bool) {
	switch ScreenshotMode(s) {
	case "", ScreenshotViewport:
		return ScreenshotViewport, true
	case ScreenshotFull:
		return ScreenshotFull, true
	}
	return "", false
}

// ScreenshotKind names one stored screenshot of a report.
type ScreenshotKind string

// Screenshot kinds, in the order a report lists them.
const (
	// ShotViewport is the first screen, as a visitor first sees it.
	ShotViewport ScreenshotKind = "viewport"
	// ShotFull is the whole page (at most the renderer's height cap).
	ShotFull ScreenshotKind = "full"
)

// ParseScreenshotKind accepts viewport and full ("" is viewport); anything
// else is a *ValidationError on kind.
func ParseScreenshotKind(s string) (ScreenshotKind, error) {
	switch ScreenshotKind(s) {
	case "", ShotViewport:
		return ShotViewport, nil
	case ShotFull:
		return ShotFull, nil
	}
	return "", Invalid("kind", "must be viewport or full")
}

// Caps of the stored screenshots, in bytes: the viewport's is the
// renderer's own (adapters/render re-encodes at a lower quality until it
// fits); a bigger image is dropped, never cut.
const (
	MaxViewportShot = 300 << 10
	MaxFullShot     = 2 << 20
)

// Max is the cap of a screenshot of kind k, in bytes.
func (k ScreenshotKind) Max() int {
	if k == ShotFull {
		return MaxFullShot
	}
	return MaxViewportShot
}

// ErrNoScreenshot is returned for a screenshot a report does not keep: its
// current analysis did not render, the render took none of that kind, or
// the report never asked for a full page one.
var ErrNoScreenshot = fault.New(fault.NotFound, "report: no screenshot of this kind: the report's current analysis did not render or did not keep one (a full page one needs screenshot=full)")

// Screenshots are the JPEG images a report keeps of its current analysis'
// render, at most one of each kind. Nil is none.
type Screenshots struct {
	Viewport, Full []byte
}

// jpegMagic starts every JPEG file (SOI and the first marker's prefix).
var jpegMagic = []byte{0xFF, 0xD8, 0xFF}

// Bounded is s without the images a report does not keep: empty ones,
// ones over their kind's cap (MaxViewportShot, MaxFullShot), and ones that
// are not JPEG files (the image is served as image/jpeg). The images kept
// are copies.
func (s Screenshots) Bounded() Screenshots {
	keep := func(b []byte, k ScreenshotKind) []byte {
		if len(b) == 0 || len(b) > k.Max() || !bytes.HasPrefix(b, jpegMagic) {
			return nil
		}
		return bytes.Clone(b)
	}
	return Screenshots{Viewport: keep(s.Viewport, ShotViewport), Full: keep(s.Full, ShotFull)}
}

// Of is the image of kind k (nil when none).
func (s Screenshots) Of(k ScreenshotKind) []byte {
	if k == ShotFull {
		return s.Full
	}
	return s.Viewport
}

// Kinds lists the kinds s holds an image of, viewport first.
func (s Screenshots) Kinds() []ScreenshotKind {
	var out []ScreenshotKind
	for _, k := range []ScreenshotKind{ShotViewport, ShotFull} {
		if len(s.Of(k)) > 0 {
			out = append(out, k)
		}
	}
	return out
}

// KindsText is kinds as stores keep them: comma-separated, "" for none.
func KindsText(kinds []ScreenshotKind) string {
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = string(k)
	}
	return strings.Join(parts, ",")
}

// ParseKindsText reads KindsText back; unknown kinds are left out.
func ParseKindsText(s string) []ScreenshotKind {
	var out []ScreenshotKind
	for part := range strings.SplitSeq(s, ",") {
		if k := ScreenshotKind(part); k == ShotViewport || k == ShotFull {
			out = append(out, k)
		}
	}
	return out
}

// HasScreenshot reports whether r keeps a screenshot of kind k.
func (r Report) HasScreenshot(k ScreenshotKind) bool {
	for _, have := range r.Screenshots {
		if have == k {
			return true
		}
	}
	return false
}

// ApplyScreenshots is Apply keeping shots, the screenshots of a's render
// (bounded when stored: see Screenshots.Bounded), in place of the
// report's previous ones.
func (r *Report) ApplyScreenshots(a pagecheck.Analysis, shots Screenshots, at time.Time) error {
	if err := r.Apply(a, at); err != nil {
		return err
	}
	r.NewScreenshots = &shots
	return nil
}
