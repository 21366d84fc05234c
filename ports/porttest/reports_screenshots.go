package porttest

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/report"
)

// FakeJPEG is n bytes that start and end as a JPEG file does, filled with
// seed: what stores and transports take for a screenshot in tests.
func FakeJPEG(n int, seed byte) []byte {
	b := bytes.Repeat([]byte{seed}, max(n, 5))
	copy(b, []byte{0xFF, 0xD8, 0xFF})
	b[len(b)-2], b[len(b)-1] = 0xFF, 0xD9
	return b
}

// testReportScreenshots: the screenshots a write carries are stored once
// per report, read one at a time (another user's never), kept by writes
// that carry none, replaced by the next analysis' (none: deleted), over
// their cap dropped, not cut; deleting the report, its project or its user
// deletes them (counted where the suite can count).
func testReportScreenshots(t *testing.T, st ReportStores, u owners) {
	ctx := context.Background()
	s := st.Reports
	stored := func(want int, when string) {
		t.Helper()
		if st.StoredScreenshots == nil {
			return
		}
		if got := st.StoredScreenshots(t); got != want {
			t.Errorf("%s: %d screenshots stored, want %d", when, got, want)
		}
	}
	image := func(id int64, kind report.ScreenshotKind) []byte {
		t.Helper()
		b, err := s.Screenshot(ctx, u[1], id, kind)
		if err != nil && !errors.Is(err, report.ErrNotFound) {
			t.Fatalf("Screenshot(%d, %s) = %v", id, kind, err)
		}
		return b
	}
	view, full := FakeJPEG(report.MaxViewportShot, 'v'), FakeJPEG(report.MaxFullShot, 'f')

	r := newReport(u[1], "https://spa.example/", 70, 0, report.Public)
	r.Render, r.Screenshot = pagecheck.RenderOn, report.ScreenshotFull
	r.NewScreenshots = &report.Screenshots{Viewport: view, Full: full}
	a := mustCreate(t, s, r)
	if !slices.Equal(a.Screenshots, []report.ScreenshotKind{report.ShotViewport, report.ShotFull}) || a.Screenshot != report.ScreenshotFull || a.NewScreenshots != nil {
		t.Errorf("created: screenshots %v, mode %q, new %v; want viewport and full, full, none", a.Screenshots, a.Screenshot, a.NewScreenshots)
	}
	if got := image(a.ID, report.ShotViewport); !bytes.Equal(got, view) {
		t.Errorf("viewport image: %d bytes, want the %d stored", len(got), len(view))
	}
	if got := image(a.ID, report.ShotFull); !bytes.Equal(got, full) {
		t.Errorf("full page image: %d bytes, want the %d stored", len(got), len(full))
	}
	if _, err := s.Screenshot(ctx, u[2], a.ID, report.ShotViewport); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("another user's screenshot: %v, want ErrNotFound", err)
	}
	if got, err := s.Report(ctx, u[1], a.ID); err != nil || !got.HasScreenshot(report.ShotFull) || got.Screenshot != report.ScreenshotFull {
		t.Errorf("read: screenshots %v, mode %q, %v", got.Screenshots, got.Screenshot, err)
	}
	items, _, err := s.Reports(ctx, u[1], report.ReportQuery{SortBy: "id", Page: paging.Page{Number: 1, PerPage: 10}})
	if err != nil || len(items) != 1 || len(items[0].Screenshots) != 2 {
		t.Errorf("list: %+v, %v; want the report with its two kinds", items, err)
	}
	stored(2, "after creation")

	// Over its cap an image is dropped whole; the other is kept.
	big := newReport(u[1], "https://big.example/", 60, 1, report.Private)
	big.NewScreenshots = &report.Screenshots{Viewport: FakeJPEG(report.MaxViewportShot+1, 'x'), Full: full}
	b := mustCreate(t, s, big)
	if !slices.Equal(b.Screenshots, []report.ScreenshotKind{report.ShotFull}) || image(b.ID, report.ShotViewport) != nil {
		t.Errorf("an over-cap viewport image: screenshots %v; want only full", b.Screenshots)
	}
	stored(3, "with an over-cap image dropped")

	// A write carrying none keeps them; the next analysis replaces them.
	if up, err := s.UpdateReport(ctx, u[1], a.ID, func(r *report.Report) error {
		r.Privacy = report.Private
		return nil
	}); err != nil || len(up.Screenshots) != 2 || !bytes.Equal(image(a.ID, report.ShotFull), full) {
		t.Errorf("a privacy change: screenshots %v, %v; want both kept", up.Screenshots, err)
	}
	view2 := FakeJPEG(1000, 'w')
	up, err := s.UpdateReport(ctx, u[1], a.ID, func(r *report.Report) error {
		r.NewScreenshots = &report.Screenshots{Viewport: view2}
		return nil
	})
	if err != nil || !slices.Equal(up.Screenshots, []report.ScreenshotKind{report.ShotViewport}) ||
		!bytes.Equal(image(a.ID, report.ShotViewport), view2) || image(a.ID, report.ShotFull) != nil {
		t.Errorf("replaced by a viewport one: screenshots %v, %v; want only the new viewport image", up.Screenshots, err)
	}
	stored(2, "after the replacement")
	up, err = s.UpdateReport(ctx, u[1], a.ID, func(r *report.Report) error {
		return r.Apply(pagecheck.Analysis{URL: "https://spa.example/", Score: 50, Results: sampleResults()}, reportEpoch.Add(time.Hour))
	})
	if err != nil || len(up.Screenshots) != 0 || image(a.ID, report.ShotViewport) != nil {
		t.Errorf("an analysis without screenshots: screenshots %v, %v; want none stored", up.Screenshots, err)
	}
	stored(1, "after an analysis without screenshots")

	// Deleting the report, its project or its user deletes them.
	c := newReport(u[1], "https://gone.example/", 60, 2, report.Private)
	c.NewScreenshots = &report.Screenshots{Viewport: view}
	gone := mustCreate(t, s, c)
	stored(2, "before the deletions")
	if err := s.DeleteReport(ctx, u[1], gone.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Screenshot(ctx, u[1], gone.ID, report.ShotViewport); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("a deleted report's screenshot: %v, want ErrNotFound", err)
	}
	stored(1, "after DeleteReport")
	if _, err := s.DeleteProject(ctx, u[1], "big.example"); err != nil {
		t.Fatal(err)
	}
	stored(0, "after DeleteProject")
	if st.DeleteUser == nil {
		return
	}
	d := newReport(u[3], "https://owner.example/", 60, 3, report.Private)
	d.NewScreenshots = &report.Screenshots{Viewport: view, Full: full}
	mustCreate(t, s, d)
	stored(2, "before the user's deletion")
	st.DeleteUser(t, u[3])
	stored(0, "after the user's deletion")
}
