package mcp

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
)

// maxURL bounds the URL argument of analyse_url and list_reports' texts.
const maxURL = 2048

type analyseArgs struct {
	URL  string `json:"url" jsonschema:"The page to analyse: an http or https URL."`
	Wait *int   `json:"wait,omitempty" jsonschema:"Seconds to wait for the analysis, 0 to 60; default about 20 (the fetch deadline + 5 s). Not finished by then: the report is returned pending and finishes in the background; call get_report with its id later."`
	// Render is the render mode: off, on or auto.
	Render *string `json:"render,omitempty" jsonschema:"off (the HTML the server sent; the server's default unless it says otherwise), on (also render the page in headless Chromium and audit what a visitor sees: raw versus rendered, what it loaded, lab performance), or auto (render when the HTML looks like a JavaScript application shell). on and auto count against the daily quota of rendered analyses too."`
	// Screenshot is which screenshots a rendered analysis keeps.
	Screenshot *string `json:"screenshot,omitempty" jsonschema:"With render on or auto: viewport (the first screen, the default) or full (the whole page too). full with render off is refused."`
}

type reportIDArgs struct {
	ID int64 `json:"id" jsonschema:"The report's id (from analyse_url or list_reports)."`
}

type listArgs struct {
	Search  string `json:"search,omitempty" jsonschema:"Only reports whose URL contains this (case, scheme and a leading www. ignored)."`
	Project string `json:"project,omitempty" jsonschema:"Only this site's reports (host name, a leading www. ignored)."`
	Result  string `json:"result,omitempty" jsonschema:"Only reports of this band: good, decent or bad."`
	Status  string `json:"status,omitempty" jsonschema:"Only reports in this state: pending, running, generated or failed."`
	SortBy  string `json:"sort_by,omitempty" jsonschema:"id (creation order, the default), generated_at, url or result (by score)."`
	Sort    string `json:"sort,omitempty" jsonschema:"desc (the default) or asc."`
	Page    int    `json:"page,omitempty" jsonschema:"Page number from 1."`
	PerPage int    `json:"per_page,omitempty" jsonschema:"10 (the default), 25, 50 or 100."`
}

// reportItem is a report without its checks.
type reportItem struct {
	ID          int64      `json:"id"`
	URL         string     `json:"url" jsonschema:"The analysed URL, after redirects."`
	Project     string     `json:"project" jsonschema:"Host of the URL, lower-cased, without a leading www."`
	Status      string     `json:"status" jsonschema:"pending or running (not finished: call get_report later), generated or failed."`
	Result      string     `json:"result" jsonschema:"good (score above 79), decent (49 to 79) or bad; empty until an analysis finished."`
	Score       int        `json:"score" jsonschema:"0 to 100: 100 x the weight of the passed checks / the weight of all checks."`
	Attempts    int        `json:"attempts"`
	Failure     string     `json:"failure,omitempty" jsonschema:"Why the analysis failed, with status failed."`
	GeneratedAt *time.Time `json:"generated_at" jsonschema:"When the last analysis finished; null before."`
	CreatedAt   time.Time  `json:"created_at"`
	Render      string     `json:"render" jsonschema:"How the report's analyses load the page: off, on or auto."`
	Rendered    bool       `json:"rendered" jsonschema:"Whether the analysis audited the page as the browser rendered it."`
	Screenshot  string     `json:"screenshot" jsonschema:"Which screenshots the report's rendered analyses keep: viewport or full."`
}

// check is one check of a report.
type check struct {
	ID         string   `json:"id"`
	Title      string   `json:"title"`
	Category   string   `json:"category" jsonschema:"seo, performance, security or miscellaneous."`
	Importance string   `json:"importance" jsonschema:"high, medium or low."`
	Passed     bool     `json:"passed"`
	Message    string   `json:"message"`
	Advice     string   `json:"advice,omitempty" jsonschema:"What to change, when failed."`
	Offending  []string `json:"offending,omitempty" jsonschema:"What a failed check blames: elements, header values or URLs."`
}

// reportData is a report with its checks, failed ones first.
type reportData struct {
	reportItem
	Checks []check `json:"checks"`
	// Rendering is what the browser showed, with render on or auto.
	Rendering *pagecheck.Rendering `json:"rendering,omitempty" jsonschema:"What the browser showed (render on or auto): raw versus rendered, what the page loaded, lab performance; or why it did not render."`
	// Screenshots are the paths of the report's screenshots.
	Screenshots map[string]string `json:"screenshots,omitempty" jsonschema:"The screenshots the render kept, by kind (viewport, full): the HTTP API's paths (GET with the same API key, on the server's origin after its base path) of the JPEG images, which this tool never returns itself. Absent when none were kept."`
}

type reportsResult struct {
	Reports []reportItem `json:"reports"`
	Meta    pageMeta     `json:"meta"`
}

func (t *tools) addReports(s *sdk.Server) {
	rs := t.Reports
	addTool(s, t, &sdk.Tool{Name: "analyse_url", Title: "Analyse a web page (API key)",
		Annotations: &sdk.ToolAnnotations{OpenWorldHint: new(true)},
		Description: "Fetch a public web page and audit it for SEO, performance and security, storing a report with a 0-100 " +
			"score and every check's advice. Needs an API key. Waits up to wait seconds; a report not finished by then is " +
			"returned pending with its id (poll get_report). Counts against the user's daily analysis quota: rate_limited " +
			"with retry_after_seconds when used up or when the site was analysed too often in the last minute. A rendered " +
			"report names the HTTP API paths of its screenshots (screenshots), fetched there with the same key; no image is returned here."},
		func(ctx context.Context, req *sdk.CallToolRequest, in analyseArgs) (reportData, string, error) {
			user, err := t.userID(ctx, req.Extra)
			if err != nil {
				return reportData{}, "", err
			}
			bad := argErrors{}
			addErr(bad, checkLen("url", in.URL, maxURL))
			var wait *time.Duration
			if in.Wait != nil {
				if *in.Wait < 0 || *in.Wait > int(reports.MaxWait/time.Second) {
					bad.add("wait", fmt.Sprintf("must be from 0 to %d seconds", int(reports.MaxWait/time.Second)))
				}
				d := time.Duration(*in.Wait) * time.Second
				wait = &d
			}
			if err := bad.err(); err != nil {
				return reportData{}, "", err
			}
			r, err := rs.Create(ctx, user, reports.NewReport{URL: in.URL, Wait: wait, Render: in.Render, Screenshot: in.Screenshot})
			if err != nil {
				return reportData{}, "", err
			}
			return reportDataOf(r.Report), summary(r.Report), nil
		})
	addTool(s, t, &sdk.Tool{Name: "get_report", Title: "A site-analysis report (API key)", Annotations: readOnly,
		Description: "One of the user's reports by id, with every check (failed first) and its advice. Needs an API key. " +
			"Use it to follow a pending report from analyse_url until its status is generated or failed."},
		func(ctx context.Context, req *sdk.CallToolRequest, in reportIDArgs) (reportData, string, error) {
			user, err := t.userID(ctx, req.Extra)
			if err != nil {
				return reportData{}, "", err
			}
			r, err := rs.Get(ctx, user, in.ID)
			if err != nil {
				return reportData{}, "", err
			}
			return reportDataOf(r), summary(r), nil
		})
	addTool(s, t, &sdk.Tool{Name: "list_reports", Title: "The user's reports (API key)", Annotations: readOnly,
		Description: "A page of the user's site-analysis reports, newest first unless sorted otherwise, without their " +
			"checks (get_report has them). Needs an API key."},
		func(ctx context.Context, req *sdk.CallToolRequest, in listArgs) (reportsResult, string, error) {
			user, err := t.userID(ctx, req.Extra)
			if err != nil {
				return reportsResult{}, "", err
			}
			bad := argErrors{}
			addErr(bad, checkLen("search", in.Search, maxURL))
			addErr(bad, checkLen("project", in.Project, maxURL))
			if err := bad.err(); err != nil {
				return reportsResult{}, "", err
			}
			page, err := rs.List(ctx, user, report.ReportParams{Search: in.Search, Project: in.Project, Result: in.Result,
				Status: in.Status, SortBy: in.SortBy, Sort: in.Sort, Page: in.Page, PerPage: in.PerPage})
			if err != nil {
				return reportsResult{}, "", err
			}
			out := reportsResult{Reports: make([]reportItem, len(page.Items)), Meta: metaOf(page.Page, page.Total)}
			for i, r := range page.Items {
				out.Reports[i] = itemOf(r)
			}
			return out, fmt.Sprintf("%d reports; page %d of %d", page.Total, out.Meta.CurrentPage, out.Meta.LastPage), nil
		})
}

// userID is the id of the caller's user: the one the HTTP handler
// verified the request's Bearer key of (extra's token info), else the
// stdio session's key's, verified now; unauthorized without either.
func (t *tools) userID(ctx context.Context, extra *sdk.RequestExtra) (int64, error) {
	if extra != nil && extra.TokenInfo != nil {
		if id, err := strconv.ParseInt(extra.TokenInfo.UserID, 10, 64); err == nil {
			return id, nil
		}
	}
	if t.Key == "" || t.Authenticate == nil {
		return 0, errUnauthorized
	}
	u, err := t.Authenticate(ctx, t.Key)
	return u.ID, err
}

func itemOf(r report.Report) reportItem {
	it := reportItem{ID: r.ID, URL: r.URL, Project: r.Project, Status: string(report.StatusOrGenerated(r.Status)),
		Result: string(r.Rating), Score: r.Score, Attempts: r.Attempts, Failure: r.Failure, CreatedAt: r.CreatedAt.UTC(),
		Render: string(cmp.Or(r.Render, pagecheck.RenderOff)), Rendered: r.Rendering != nil && r.Rendering.Rendered,
		Screenshot: string(cmp.Or(r.Screenshot, report.ScreenshotViewport))}
	if !r.GeneratedAt.IsZero() {
		g := r.GeneratedAt.UTC()
		it.GeneratedAt = &g
	}
	return it
}

func reportDataOf(r report.Report) reportData {
	out := reportData{reportItem: itemOf(r), Checks: []check{}, Rendering: r.Rendering, Screenshots: screenshotPaths(r)}
	var passed []check
	for _, c := range pagecheck.Categories {
		for _, ch := range r.Results[c] {
			k := check{ID: ch.ID, Title: ch.Title, Category: string(c), Importance: string(ch.Importance), Passed: ch.Passed,
				Message: ch.Message, Advice: ch.Advice, Offending: ch.Offending}
			if ch.Passed {
				passed = append(passed, k)
			} else {
				out.Checks = append(out.Checks, k)
			}
		}
	}
	out.Checks = append(out.Checks, passed...)
	return out
}

// screenshotAPIPath is the HTTP API's path of a report's screenshot
// (httpapi's GET /api/v1/reports/{id}/screenshot; the MCP transport does
// not import the HTTP one).
const screenshotAPIPath = "/api/v1/reports/%d/screenshot?kind=%s"

// screenshotPaths are the paths of r's screenshots by kind, nil when it
// keeps none.
func screenshotPaths(r report.Report) map[string]string {
	if len(r.Screenshots) == 0 {
		return nil
	}
	out := make(map[string]string, len(r.Screenshots))
	for _, k := range r.Screenshots {
		out[string(k)] = fmt.Sprintf(screenshotAPIPath, r.ID, k)
	}
	return out
}

// summary is a report in one line.
func summary(r report.Report) string {
	st := report.StatusOrGenerated(r.Status)
	switch st {
	case report.StatusGenerated:
		failed := 0
		for _, c := range pagecheck.Categories {
			for _, ch := range r.Results[c] {
				if !ch.Passed {
					failed++
				}
			}
		}
		return fmt.Sprintf("report %d: %s scored %d (%s), %d checks failed", r.ID, r.URL, r.Score, r.Rating, failed)
	case report.StatusFailed:
		return fmt.Sprintf("report %d: the analysis of %s failed: %s", r.ID, r.URL, cmp.Or(r.Failure, "no reason given"))
	}
	return fmt.Sprintf("report %d: %s is %s; call get_report with id %d later", r.ID, r.URL, st, r.ID)
}
