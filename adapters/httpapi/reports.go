package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/adapters/httpapi/sharepage"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
)

// scoreDoc explains the score and bands wherever a report is returned.
var scoreDoc = "Score: 100 x the weight of the passed checks / the weight of all checks, truncated to an " +
	"integer (weights: high 10, medium 5, low 0; 0 when no check carries weight). Result: good above 79, " +
	"decent 49 to 79, bad below 49; a page answering other than 2xx scores 48 at most (it rates bad: an error page). " + catalogueDoc() + " A failed check carries advice (what to change) " +
	"and, where it blames something in particular, its offending elements."

// catalogueDoc counts the checks by importance, those of rendered reports
// apart.
func catalogueDoc() string {
	n := map[pagecheck.Importance]int{}
	all, rendered := 0, 0
	for _, c := range pagecheck.Catalogue() {
		if c.RenderedOnly {
			rendered++
			continue
		}
		all++
		n[c.Importance]++
	}
	return fmt.Sprintf("%d checks run (%d high, %d medium, %d low); a rendered report (render on, or auto on an application shell) adds %d more of what the browser showed (docs/rendering.md lists them).",
		all, n[pagecheck.High], n[pagecheck.Medium], n[pagecheck.Low], rendered)
}

type reportListInput struct {
	Search   string `query:"search" maxLength:"2048" doc:"Free text matched in the URL, ignoring case, the scheme and a leading www. A NUL character or invalid UTF-8 is 422."`
	SearchBy string `query:"search_by" enum:"url" default:"url" doc:"What search matches: url."`
	Project  string `query:"project" maxLength:"255" doc:"Only this project's reports (case and a leading www. ignored). A NUL character or invalid UTF-8 is 422."`
	Result   string `query:"result" enum:"good,decent,bad" doc:"Only reports of this band."`
	Status   string `query:"status" enum:"pending,running,generated,failed" doc:"Only reports in this state of their analysis."`
	SortBy   string `query:"sort_by" enum:"id,generated_at,url,result" default:"id" doc:"id is the creation order; result sorts by score. Ties are broken by id."`
	Sort     string `query:"sort" enum:"desc,asc" default:"desc" doc:"Direction of sort_by."`
	PerPage  int    `query:"per_page" enum:"10,25,50,100" default:"10" doc:"Items per page."`
	Page     int    `query:"page" minimum:"1" default:"1" doc:"A page beyond the last is an empty list."`
}

type reportIDInput struct {
	ID int64 `path:"id" doc:"Report id."`
}

// waitDoc documents the wait parameter of create and re-analyse.
const waitDoc = "Seconds to wait for the analysis, 0 to 60; absent: the fetch deadline + 5 s (20 s with the " +
	"default deadline), so every page that answers at all is analysed within it. Finished in time: the finished " +
	"report, as without wait. Not finished in time (or wait=0): 202 with the report pending or running and a " +
	"Location header naming it; a durable job finishes it (poll GET /reports/{id} until status is generated or failed)."

type reportCreateInput struct {
	Wait           int    `query:"wait" minimum:"0" maximum:"60" doc:"See the operation's description."`
	waitSent       bool   // wait was in the query
	IdempotencyKey string `header:"Idempotency-Key" maxLength:"255" doc:"Optional name of this creation request, chosen by the client (a UUID, say): 1 to 255 printable ASCII characters (space to ~), else 422 on Idempotency-Key. Sent again by the same user within 24 hours with the same body, the request creates nothing and answers the first answer's status with the report as it is now (Idempotent-Replayed: true), or 404 if it was deleted since; with another body it is 422 on Idempotency-Key; while the first request still runs it is 409 with Retry-After (it is never analysed twice). A request that failed does not keep its key: a retry runs again. Use it to retry safely after a lost answer or a server stop. Keys are per user and forgotten 24 hours after their first use."`
	Body           struct {
		URL        string  `json:"url" minLength:"1" maxLength:"2048" doc:"The URL to analyse: http or https."`
		Privacy    *int    `json:"privacy,omitempty" enum:"0,1,2" doc:"0 public, 1 private (default), 2 password."`
		Password   *string `json:"password,omitempty" maxLength:"1024" doc:"Required with privacy 2, refused otherwise. The account password rules apply (at least 8 characters not counting leading and trailing spaces, at most 256 bytes, no control characters, not common), the e-mail rule aside."`
		Schedule   *string `json:"schedule,omitempty" enum:"daily,weekly,off" doc:"Re-analyse the report by itself daily or weekly (off: never, the default); each run is kept in its history (GET /reports/{id}/history). Scheduled runs are not charged to the daily quota of analyses, so at most 50 of a user's reports may be scheduled (a 51st is 422 on schedule)."`
		Render     *string `json:"render,omitempty" enum:"off,on,auto" doc:"off (the HTML the server sent; the default unless the server sets --render-default), on (also load the page in headless Chromium and audit the rendered DOM, with raw versus rendered, what the page loaded and lab performance; 422 where the server has no browser), auto (render when the HTML the server sent looks like an application shell, the rule the README gives). on and auto each take one rendered analysis from the daily quota of renders when accepted, besides the analysis; a user renders one page at a time."`
		Screenshot *string `json:"screenshot,omitempty" enum:"viewport,full" doc:"Which screenshots a rendered analysis keeps (with render on or auto): viewport (the first screen, the default) or full (the whole page too). full with render off is 422 on screenshot. Kept on the report for its re-analyses and schedules; the report's screenshots lists the paths of those its current analysis kept (GET /reports/{id}/screenshot)."`
	}
}

type reportUpdateInput struct {
	ID       int64 `path:"id" doc:"Report id."`
	Wait     int   `query:"wait" minimum:"0" maximum:"60" doc:"With results=1: see the operation's description."`
	waitSent bool  // wait was in the query
	Body     *struct {
		Privacy  *int    `json:"privacy,omitempty" enum:"0,1,2" doc:"0 public, 1 private, 2 password."`
		Password *string `json:"password,omitempty" maxLength:"1024" doc:"A new share password (the rules of create-report); only when the privacy is or becomes 2."`
		Results  int     `json:"results,omitempty" enum:"0,1" default:"0" doc:"1 re-runs the analysis; 0 keeps the results."`
		Schedule *string `json:"schedule,omitempty" enum:"daily,weekly,off" doc:"Re-analyse daily or weekly, the next run a period from now; off stops. At most 50 of a user's reports may be scheduled (422 on schedule beyond)."`
		Render   *string `json:"render,omitempty" enum:"off,on,auto" doc:"With results=1 only (422 otherwise): how this re-analysis and the report's later ones load the page, as in create-report; absent keeps the report's mode."`
		// Screenshot changes the screenshots the re-analyses keep.
		Screenshot *string `json:"screenshot,omitempty" enum:"viewport,full" doc:"With results=1 only (422 otherwise): which screenshots this re-analysis and the report's later ones keep, as in create-report (full with the resulting render off is 422); absent keeps the report's. The re-analysis replaces the report's screenshots; one that does not render deletes them."`
	}
}

func registerReports(api huma.API, rs *reports.Reports, acc *accounts.Accounts) {
	g, base := group(api), mountPath(api)
	tags := []string{"Reports"}
	op := huma.Operation{OperationID: "list-reports", Method: http.MethodGet, Path: "/reports", Tags: tags,
		Summary: "List the caller's reports",
		Description: "Filters combine. Invalid search_by, result, sort_by, sort, per_page (10, 25, 50 or 100) or page " +
			"values are 422, never replaced by defaults. Items carry every report field except results (fetch one " +
			"report for its checks). data: {reports, meta: {total, per_page, current_page, last_page}}."}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *reportListInput) (*reply[wire.ReportsData], error) {
		page, err := rs.List(ctx, caller(ctx).User.ID, report.ReportParams{
			Search: in.Search, SearchBy: in.SearchBy, Project: in.Project, Result: in.Result,
			SortBy: in.SortBy, Sort: in.Sort, PerPage: in.PerPage, Page: in.Page, Status: in.Status,
		})
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(reportsDataOf(base, page)), nil
	})
	op = huma.Operation{OperationID: "get-report", Method: http.MethodGet, Path: "/reports/{id}", Tags: tags,
		Summary: "Fetch one of the caller's reports", Description: "Another user's report is 404. " + scoreDoc}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *reportIDInput) (*reply[wire.ReportData], error) {
		r, err := rs.Get(ctx, caller(ctx).User.ID, in.ID)
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(reportDataOf(base, r)), nil
	})
	registerReportWrites(g, base, rs, acc)
	registerReportBatch(g, base, rs, acc)
	registerReportHistory(g, rs, acc)
	registerReportScreenshot(g, rs, acc)
}

// createdReply is the answer of create-report: the report, with
// Idempotent-Replayed when an earlier request with the same
// Idempotency-Key created it.
type createdReply struct {
	Status   int    `json:"-"`
	Replayed string `header:"Idempotent-Replayed" doc:"true when the answer replays an earlier request with the same Idempotency-Key (the report as it is now); absent otherwise."`
	Location string `header:"Location" doc:"With 202: the path of the pending report, /reports/{id}."`
	Body     envelope[wire.ReportData]
}

// updatedReply is the answer of update-report: 200, or 202 with Location
// when the re-analysis goes on in a job.
type updatedReply struct {
	Status   int    `json:"-"`
	Location string `header:"Location" doc:"With 202: the path of the report, /reports/{id}."`
	Body     envelope[wire.ReportData]
}

// Resolve notes whether wait was sent (absent takes the server's default).
func (in *reportCreateInput) Resolve(ctx huma.Context) []error {
	in.waitSent = ctx.Query("wait") != ""
	return nil
}

// Resolve notes whether wait was sent.
func (in *reportUpdateInput) Resolve(ctx huma.Context) []error {
	in.waitSent = ctx.Query("wait") != ""
	return nil
}

// waitOf is the wait a request sent, nil when it sent none.
func waitOf(sent bool, seconds int) *time.Duration {
	if !sent {
		return nil
	}
	d := time.Duration(seconds) * time.Second
	return &d
}

// reportPath is the Location of a report (after the base path).
func reportPath(id int64) string { return prefix + "/reports/" + strconv.FormatInt(id, 10) }

// quotaDoc describes the analysis quotas of creating and re-analysing.
const quotaDoc = "429 with Retry-After when the caller has too many analyses running at once or has used " +
	"their daily quota of analyses (per user, whatever the API key), or when the target site (registrable " +
	"domain) or the address it resolves to was analysed too often in the last minute (so no site is " +
	"hammered); 503 with Retry-After when every analysis slot of the server is busy. The daily quota is " +
	"charged when the analysis is accepted; with the job queue, an accepted analysis refused only for now " +
	"(busy, throttled, too many at once) is stored pending (202) and its job runs it later, its retries " +
	"free of the daily quota."

func registerReportWrites(g huma.API, base string, rs *reports.Reports, acc *accounts.Accounts) {
	tags := []string{"Reports"}
	op := huma.Operation{OperationID: "create-report", Method: http.MethodPost, Path: "/reports", Tags: tags,
		DefaultStatus: http.StatusCreated, Summary: "Analyse a URL and store the report",
		Description: "Fetches and analyses url synchronously (one deadline covers the page, robots.txt and a 404 " +
			"probe) and answers 201 with the report. A target that answers at all, with any status, is analysed; " +
			"no answer or a refused target (not a public address, port, a host written as a non-canonical number such " +
			"as 127.1) is 422 on url with the reason. " + quotaDoc + " privacy defaults to 1. password is required with " +
			"privacy 2 and refused (422) with 0 or 1; an empty password field counts as not sent. Share passwords " +
			"follow the account password rules but the e-mail one. Passwords are stored as argon2id hashes and " +
			"never returned (has_password tells); hashing takes a password slot (503 with Retry-After when they " +
			"stay busy). With an Idempotency-Key header, a retry of the same request (after a lost answer, a " +
			"timeout or a server stop) creates no second report: it answers the first answer's status with the " +
			"report as it is now; the key with another body is 422; while the first request runs, 409 with " +
			"Retry-After. " + waitDoc + " The first analysis of a synchronous request is not retried: no answer " +
			"at all is 422 at once, as are the quotas' 429 and the busy 503; a job (after 202) retries timeouts, " +
			"reset connections and 5xx answers with backoff, at most 3 analyses, waits out quotas and throttles " +
			"instead of failing, and never retries a 4xx answer (a finished report) or a refused target (failed). " +
			"A job survives a restart of the server: a report is never left pending. " + scoreDoc}
	protect(acc, &op)
	registerForm(g, op, func(ctx context.Context, in *reportCreateInput) (*createdReply, error) {
		r, err := rs.Create(ctx, caller(ctx).User.ID, reports.NewReport{URL: in.Body.URL, Privacy: in.Body.Privacy, Password: in.Body.Password,
			IdempotencyKey: in.IdempotencyKey, Wait: waitOf(in.waitSent, in.Wait), Schedule: in.Body.Schedule,
			Render: in.Body.Render, Screenshot: in.Body.Screenshot})
		if err != nil {
			return nil, toHTTP(err)
		}
		out := &createdReply{Status: outcomeStatus[r.Outcome], Body: envelope[wire.ReportData]{Success: true, Data: reportDataOf(base, r.Report)}}
		if r.Outcome == report.OutcomeAccepted {
			out.Location = base + reportPath(r.ID)
		}
		if r.Replayed {
			out.Replayed = "true"
		}
		return out, nil
	})
	op = huma.Operation{OperationID: "update-report", Method: http.MethodPut, Path: "/reports/{id}", Tags: tags,
		Summary: "Change a report's privacy or password, or re-run its analysis",
		Description: "Every field is optional; an empty body changes nothing. Going to privacy 2 needs a password " +
			"unless one is stored already: leaving 2 keeps the stored hash, so returning to 2 reuses it. A " +
			"password is accepted only when the resulting privacy is 2. results=1 re-analyses the report's URL " +
			"and replaces results, score, result, project and generated_at in the same write; results=0 " +
			"(default) keeps them. A re-analysis counts against the same quotas as a new report: " + quotaDoc +
			" Another user's report is 404. With results=1, wait works as in create-report: 200 with the " +
			"re-analysed report in time, else 202 with the report running or pending and Location. " + waitDoc}
	protect(acc, &op)
	registerForm(g, op, func(ctx context.Context, in *reportUpdateInput) (*updatedReply, error) {
		upd := reports.ReportUpdate{Wait: waitOf(in.waitSent, in.Wait)}
		if in.Body != nil {
			upd.Privacy, upd.Password, upd.Reanalyse = in.Body.Privacy, in.Body.Password, in.Body.Results == 1
			upd.Schedule, upd.Render, upd.Screenshot = in.Body.Schedule, in.Body.Render, in.Body.Screenshot
		}
		r, err := rs.Update(ctx, caller(ctx).User.ID, in.ID, upd)
		if err != nil {
			return nil, toHTTP(err)
		}
		out := &updatedReply{Status: http.StatusOK, Body: envelope[wire.ReportData]{Success: true, Data: reportDataOf(base, r)}}
		if upd.Reanalyse && !r.Status.Finished() {
			out.Status, out.Location = http.StatusAccepted, base+reportPath(r.ID)
		}
		return out, nil
	})
	op = huma.Operation{OperationID: "delete-report", Method: http.MethodDelete, Path: "/reports/{id}", Tags: tags,
		Summary: "Delete one of the caller's reports", Description: "Its screenshots and history go with it. Another user's report is 404."}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *reportIDInput) (*reply[deletedData], error) {
		if err := rs.Delete(ctx, caller(ctx).User.ID, in.ID); err != nil {
			return nil, toHTTP(err)
		}
		return ok(deletedData{ID: in.ID, Deleted: true}), nil
	})
}

// registerSiteAnalysis registers the report and project operations and the
// public report page for the use cases r provides, with r.Accounts.
func registerSiteAnalysis(api huma.API, r Routes) {
	if r.Reports != nil {
		registerReports(api, r.Reports, r.Accounts)
		share := r.Share
		share.BasePath = mountPath(api)
		sharepage.Register(api, r.Reports, r.Crawls, r.Accounts, share)
	}
	if r.Projects != nil {
		registerProjects(api, r.Projects, r.Accounts)
	}
}
