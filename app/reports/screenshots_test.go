package reports_test

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

// setShots makes the renderer's next renders take shot and full.
func (r *fakeRenderer) setShots(shot, full []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.shot, r.full = shot, full
}

// fulls counts the renders that were asked for a full page screenshot.
func (r *fakeRenderer) fulls() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.fullAsked
}

// TestRenderScreenshots: a rendered analysis keeps the first screen's
// screenshot, byte for byte, and the whole page's only when asked
// (screenshot full, kept on the report for its job); a re-analysis
// replaces them, one with render off deletes them; an image over its cap
// is dropped; full with render off is refused on screenshot; deleting the
// report deletes them.
func TestRenderScreenshots(t *testing.T) {
	ctx := context.Background()
	view, full := porttest.FakeJPEG(2000, 'v'), porttest.FakeJPEG(9000, 'f')
	r := &fakeRenderer{shot: view, full: full}
	store := memory.NewReportStore()
	rs := reports.New(store, reports.NewAnalyser(renderPages, reports.AnalyserConfig{Renderer: r}), cheapPasswords)
	str := func(s string) *string { return &s }
	image := func(id int64, kind string) ([]byte, error) { return rs.Screenshot(ctx, 1, id, kind) }

	on, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://shop.example/", Render: str("on")})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := image(on.ID, "viewport"); err != nil || !bytes.Equal(got, view) {
		t.Errorf("the first screen's screenshot: %d bytes, %v; want the %d the renderer took", len(got), err, len(view))
	}
	if _, err := image(on.ID, "full"); !errors.Is(err, report.ErrNoScreenshot) || r.fulls() != 0 {
		t.Errorf("a full page screenshot not asked for: %v, full page renders %d; want ErrNoScreenshot, none", err, r.fulls())
	}
	if on.Screenshot != report.ScreenshotViewport || !on.HasScreenshot(report.ShotViewport) || on.HasScreenshot(report.ShotFull) {
		t.Errorf("report: screenshot %q, screenshots %v; want viewport, [viewport]", on.Screenshot, on.Screenshots)
	}

	both, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://shop.example/", Render: str("on"), Screenshot: str("full")})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := image(both.ID, "full"); err != nil || !bytes.Equal(got, full) || r.fulls() != 1 || both.Screenshot != report.ScreenshotFull {
		t.Errorf("asked for the full page: %d bytes, %v, full page renders %d, mode %q; want the %d taken, one, full", len(got), err, r.fulls(), both.Screenshot, len(full))
	}

	// A re-analysis replaces them (the report keeps asking for the full
	// page); one with render off deletes them.
	view2, full2 := porttest.FakeJPEG(3000, 'w'), porttest.FakeJPEG(report.MaxFullShot+1, 'g')
	r.setShots(view2, full2)
	again, err := rs.Update(ctx, 1, both.ID, reports.ReportUpdate{Reanalyse: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := image(both.ID, "viewport"); err != nil || !bytes.Equal(got, view2) || r.fulls() != 2 {
		t.Errorf("re-analysed: viewport %d bytes, %v, full page renders %d; want the new %d, two", len(got), err, r.fulls(), len(view2))
	}
	if _, err := image(both.ID, "full"); !errors.Is(err, report.ErrNoScreenshot) || again.HasScreenshot(report.ShotFull) {
		t.Errorf("a full page screenshot over its cap: %v, kinds %v; want dropped (and the old one gone)", err, again.Screenshots)
	}
	off, err := rs.Update(ctx, 1, both.ID, reports.ReportUpdate{Reanalyse: true, Render: str("off")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := image(both.ID, "viewport"); !errors.Is(err, report.ErrNoScreenshot) || len(off.Screenshots) != 0 {
		t.Errorf("re-analysed with render off: %v, kinds %v; want none kept", err, off.Screenshots)
	}

	// Refusals: full with render off, screenshot without reanalyze, a kind
	// that is not one.
	var ve *report.ValidationError
	if _, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://shop.example/", Screenshot: str("full")}); !errors.As(err, &ve) || ve.Fields["screenshot"] == nil {
		t.Errorf("full with render off: %v, want a ValidationError on screenshot", err)
	}
	if _, err := rs.Update(ctx, 1, on.ID, reports.ReportUpdate{Reanalyse: true, Render: str("off"), Screenshot: str("full")}); !errors.As(err, &ve) || ve.Fields["screenshot"] == nil {
		t.Errorf("re-analysis with render off and full: %v, want a ValidationError on screenshot", err)
	}
	if _, err := rs.Update(ctx, 1, on.ID, reports.ReportUpdate{Screenshot: str("full")}); !errors.As(err, &ve) || ve.Fields["screenshot"] == nil {
		t.Errorf("screenshot without reanalyze: %v, want a ValidationError on screenshot", err)
	}
	if _, err := image(on.ID, "thumbnail"); !errors.As(err, &ve) || ve.Fields["kind"] == nil {
		t.Errorf("kind thumbnail: %v, want a ValidationError on kind", err)
	}
	if _, err := rs.Screenshot(ctx, 2, on.ID, "viewport"); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("another user's screenshot: %v, want ErrNotFound", err)
	}

	// A batch asks as a creation does.
	batches, _, _ := admissionSetup(t, 100)
	if _, err := batches.CreateBatch(ctx, 1, reports.NewBatch{URLs: []string{"https://shop.example/"}, Screenshot: str("full")}); !errors.As(err, &ve) || ve.Fields["screenshot"] == nil {
		t.Errorf("a batch with full and render off: %v, want a ValidationError on screenshot", err)
	}
	if b, err := batches.CreateBatch(ctx, 1, reports.NewBatch{URLs: []string{"https://shop.example/"}, Render: str("auto"), Screenshot: str("full")}); err != nil ||
		b.Reports[0].Screenshot != report.ScreenshotFull {
		t.Errorf("a batch with auto and full: %+v, %v; want its reports keeping full", b.Reports, err)
	}

	// A queued analysis (its job) keeps the report's mode.
	now := time.Now().UTC()
	queued, err := store.CreateReport(ctx, report.Report{UserID: 1, URL: "https://shop.example/", Project: "shop.example", Status: report.StatusPending,
		Render: pagecheck.RenderOn, Screenshot: report.ScreenshotFull, CreatedAt: now, UpdatedAt: now, GeneratedAt: now})
	if err != nil {
		t.Fatal(err)
	}
	r.setShots(view, full)
	if err := rs.RunAnalysis(ctx, ports.AnalysisJob{ReportID: queued.ID, UserID: 1, Attempt: 1}); err != nil {
		t.Fatal(err)
	}
	if got, err := image(queued.ID, "full"); err != nil || !bytes.Equal(got, full) {
		t.Errorf("a job's analysis: full page %d bytes, %v; want the %d taken", len(got), err, len(full))
	}

	if err := rs.Delete(ctx, 1, on.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := image(on.ID, "viewport"); !errors.Is(err, report.ErrNotFound) {
		t.Errorf("a deleted report's screenshot: %v, want ErrNotFound", err)
	}
}
