package apitest

import (
	"context"

	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
)

// SetRendering makes the analyser render (render on accepted; on and auto
// render every page, as requested) from now on, each render taking shot
// as the first screen's screenshot and full as the whole page's (when
// asked for). Until it is called, render on is refused as on a server
// without Chromium.
func (f *FakeAnalyser) SetRendering(shot, full []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.renders, f.shot, f.full = true, shot, full
}

// RenderAvailable implements the reports' renderer check: nil once
// SetRendering was called.
func (f *FakeAnalyser) RenderAvailable() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.renders {
		return reports.ErrNoRenderer
	}
	return nil
}

// AdmitRenders admits every render (no quota).
func (f *FakeAnalyser) AdmitRenders(context.Context, int64, int) error { return nil }

// AnalyseWithScreenshots implements reports.PageAnalyser: the analysis
// the tables give, rendered when mode is on or auto and SetRendering was
// called (it says it rendered, with the screenshots SetRendering gave: the
// full page's with shots full).
func (f *FakeAnalyser) AnalyseWithScreenshots(_ context.Context, _ int64, rawURL string, mode pagecheck.RenderMode, shots report.ScreenshotMode) (pagecheck.Analysis, report.Screenshots, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	a, err := f.analyse(rawURL)
	if err != nil || !f.renders || (mode != pagecheck.RenderOn && mode != pagecheck.RenderAuto) {
		return a, report.Screenshots{}, err
	}
	a.Rendering = &pagecheck.Rendering{Rendered: true, Reason: pagecheck.RenderAsked, Settled: true, URL: a.URL}
	taken := report.Screenshots{Viewport: f.shot}
	if shots == report.ScreenshotFull {
		taken.Full = f.full
	}
	return a, taken.Bounded(), nil
}
