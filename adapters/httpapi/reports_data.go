package httpapi

import (
	"cmp"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/adapters/httpapi/sharepage"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/report"
)

// projectData summarises one project.
type projectData struct {
	Project   string    `json:"project" doc:"Host name, lower-cased, without a leading www."`
	Reports   int       `json:"reports" doc:"Number of reports."`
	Score     int       `json:"score" doc:"Average score of the reports, truncated."`
	Result    string    `json:"result" enum:"good,decent,bad" doc:"Band of the average score."`
	CreatedAt time.Time `json:"created_at" doc:"Creation time of the project's oldest report."`
}

// projectsData is a page of projects.
type projectsData struct {
	Projects []projectData `json:"projects"`
	Meta     wire.Meta     `json:"meta"`
}

// projectDeletedData confirms a project deletion.
type projectDeletedData struct {
	Project        string `json:"project"`
	Deleted        bool   `json:"deleted"`
	ReportsDeleted int    `json:"reports_deleted"`
}

// reportItem is r as lists show it; base is the path the API is served
// under (see mountPath), which starts share_url.
func reportItem(base string, r report.Report) wire.ReportItem {
	return wire.ReportItem{
		ID: r.ID, URL: r.URL, Project: r.Project, Result: string(r.Rating), Score: r.Score,
		Privacy: int(r.Privacy), HasPassword: r.HasPassword(), ShareURL: base + sharepage.Path(r.Token),
		Status: string(report.StatusOrGenerated(r.Status)), Attempts: r.Attempts, Failure: r.Failure,
		Schedule: cmp.Or(string(r.Schedule), "off"), NextRunAt: nextRun(r),
		Render: string(cmp.Or(r.Render, pagecheck.RenderOff)), Rendered: r.Rendering != nil && r.Rendering.Rendered,
		Screenshot:  string(cmp.Or(r.Screenshot, report.ScreenshotViewport)),
		GeneratedAt: r.GeneratedAt.UTC(), CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
	}
}

// nextRun is the time of r's next scheduled analysis, nil without one.
func nextRun(r report.Report) *time.Time {
	if r.Schedule == report.ScheduleOff {
		return nil
	}
	t := r.NextRunAt.UTC()
	return &t
}

func reportDataOf(base string, r report.Report) wire.ReportData {
	return wire.ReportData{ReportItem: reportItem(base, r), Results: resultsDataOf(r.Results), Rendering: r.Rendering,
		Screenshots: screenshotsDataOf(base, r)}
}

// screenshotsDataOf is the paths of r's screenshots, nil when it keeps
// none.
func screenshotsDataOf(base string, r report.Report) *wire.ScreenshotsData {
	if len(r.Screenshots) == 0 {
		return nil
	}
	var out wire.ScreenshotsData
	if r.HasScreenshot(report.ShotViewport) {
		out.Viewport = base + screenshotPath(r.ID, report.ShotViewport)
	}
	if r.HasScreenshot(report.ShotFull) {
		out.Full = base + screenshotPath(r.ID, report.ShotFull)
	}
	return &out
}

// resultsDataOf is a page audit's checks by category, as a report shows
// them.
// checkDataOf is one check's outcome as the API answers it.
func checkDataOf(ch pagecheck.Check) wire.CheckData {
	return wire.CheckData{ID: ch.ID, Title: ch.Title, Passed: ch.Passed, Importance: string(ch.Importance), Value: ch.Value,
		Omitted: ch.Omitted, Errors: ch.Errors, Message: ch.Message, Advice: ch.Advice, Offending: ch.Offending, OffendingOmitted: ch.OffendingOmitted}
}

func resultsDataOf(res pagecheck.Results) wire.ResultsData {
	checks := func(c pagecheck.Category) []wire.CheckData {
		out := make([]wire.CheckData, 0, len(res[c]))
		for _, ch := range res[c] {
			out = append(out, checkDataOf(ch))
		}
		return out
	}
	return wire.ResultsData{
		SEO: checks(pagecheck.SEO), Performance: checks(pagecheck.Performance), Security: checks(pagecheck.Security), Miscellaneous: checks(pagecheck.Miscellaneous),
	}
}

func reportsDataOf(base string, page paging.List[report.Report]) wire.ReportsData {
	out := wire.ReportsData{Reports: make([]wire.ReportItem, 0, len(page.Items)), Meta: metaOf(page.Page, page.Total)}
	for _, r := range page.Items {
		out.Reports = append(out.Reports, reportItem(base, r))
	}
	return out
}

func projectsDataOf(page paging.List[report.Project]) projectsData {
	out := projectsData{Projects: make([]projectData, 0, len(page.Items)), Meta: metaOf(page.Page, page.Total)}
	for _, p := range page.Items {
		out.Projects = append(out.Projects, projectData{Project: p.Name, Reports: p.Reports, Score: p.Score, Result: string(p.Rating), CreatedAt: p.CreatedAt.UTC()})
	}
	return out
}
