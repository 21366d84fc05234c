package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/pinsight/pinsight/adapters/httpapi/sharepage"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/report"
)

type reportScreenshotInput struct {
	ID   int64  `path:"id" doc:"Report id."`
	Kind string `query:"kind" enum:"viewport,full" default:"viewport" doc:"viewport: the first screen; full: the whole page (kept with screenshot=full)."`
}

// screenshotPath is the path of report id's screenshot of kind (after the
// base path).
func screenshotPath(id int64, kind report.ScreenshotKind) string {
	return reportPath(id) + "/screenshot?kind=" + string(kind)
}

// screenshotDoc describes the screenshots wherever the API mentions them.
const screenshotDoc = "A rendered analysis (render on, or auto on an application shell) keeps a JPEG of the first " +
	"screen (at most 300 KiB) and, with screenshot=full, one of the whole page (at most 16,384 CSS pixels high, " +
	"2 MiB); an image over its cap is dropped, never cut. They are stored once per report: a re-analysis replaces " +
	"them, one that does not render deletes them, and they go with the report. The report's screenshots field " +
	"lists the paths of those it keeps."

// registerReportScreenshot registers GET /reports/{id}/screenshot.
func registerReportScreenshot(g huma.API, rs *reports.Reports, acc *accounts.Accounts) {
	op := huma.Operation{OperationID: "get-report-screenshot", Method: http.MethodGet, Path: "/reports/{id}/screenshot",
		Tags: []string{"Reports"}, Summary: "A screenshot of one of the caller's reports",
		Description: screenshotDoc + " The image is answered as image/jpeg with an ETag (If-None-Match answers 304) and " +
			"Cache-Control: " + sharepage.PrivateImageCache + ". 404 in the JSON envelope when the report keeps no " +
			"screenshot of that kind (or is another user's). The report's page (share_url) shows the first screen's " +
			"to whoever may see the page, at share_url/screenshot?kind=viewport|full.",
		Responses: map[string]*huma.Response{"200": {Description: "The JPEG image.", Content: map[string]*huma.MediaType{
			"image/jpeg": {Schema: &huma.Schema{Type: "string", Format: "binary"}}}}}}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *reportScreenshotInput) (*huma.StreamResponse, error) {
		img, err := rs.Screenshot(ctx, caller(ctx).User.ID, in.ID, in.Kind)
		if err != nil {
			return nil, toHTTP(err)
		}
		return &huma.StreamResponse{Body: func(hctx huma.Context) {
			r, w := humago.Unwrap(hctx)
			sharepage.WriteImage(w, r, img, sharepage.PrivateImageCache)
		}}, nil
	})
}
