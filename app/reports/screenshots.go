package reports

import (
	"context"
	"errors"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
)

// analyse runs the analysis of url for userID as mode and shots say, its
// screenshots beside it.
func (rs *Reports) analyse(ctx context.Context, userID int64, url string, mode pagecheck.RenderMode, shots report.ScreenshotMode) outcome {
	a, s, err := rs.analyser.AnalyseWithScreenshots(ctx, userID, url, mode, shots)
	return outcome{a: a, shots: s, err: err}
}

// screenshotOf is the screenshot mode a request asked for (nil: viewport,
// the default). Full with render off, which never takes one, is a
// *report.ValidationError on screenshot.
func screenshotOf(s *string, mode pagecheck.RenderMode) (report.ScreenshotMode, error) {
	if s == nil {
		return report.ScreenshotViewport, nil
	}
	m, ok := report.ParseScreenshotMode(*s)
	if !ok {
		return "", report.Invalid("screenshot", "must be "+report.ScreenshotModesText)
	}
	if m == report.ScreenshotFull && (mode == pagecheck.RenderOff || mode == "") {
		return "", report.Invalid("screenshot", "full needs render on or auto: an analysis with render off takes no screenshot")
	}
	return m, nil
}

// Screenshot returns the screenshot of kind (viewport, "" included, or
// full) of the user's report id, a JPEG. Errors: *report.ValidationError
// on kind, report.ErrNotFound (no such report of the user's),
// report.ErrNoScreenshot (the report keeps none of that kind).
func (rs *Reports) Screenshot(ctx context.Context, userID, id int64, kind string) ([]byte, error) {
	k, err := report.ParseScreenshotKind(kind)
	if err != nil {
		return nil, err
	}
	img, err := rs.store.Screenshot(ctx, userID, id, k)
	if !errors.Is(err, report.ErrNotFound) {
		return img, err
	}
	if _, err := rs.store.Report(ctx, userID, id); err != nil {
		return nil, err
	}
	return nil, report.ErrNoScreenshot
}

// SharedScreenshot returns the screenshot of kind of r, a report its
// public page shows to the viewer (Shared returned it and the page's
// rules let the viewer see it: the caller checks). Errors as Screenshot's.
func (rs *Reports) SharedScreenshot(ctx context.Context, r report.Report, kind string) ([]byte, error) {
	k, err := report.ParseScreenshotKind(kind)
	if err != nil {
		return nil, err
	}
	if !r.HasScreenshot(k) {
		return nil, report.ErrNoScreenshot
	}
	img, err := rs.store.Screenshot(ctx, r.UserID, r.ID, k)
	if errors.Is(err, report.ErrNotFound) {
		return nil, report.ErrNoScreenshot // replaced or deleted since the page read the report
	}
	return img, err
}
