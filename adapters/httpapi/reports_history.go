package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/reports"
)

// runData is one finished analysis of a report.
type runData struct {
	At      time.Time `json:"at" doc:"When the analysis ran."`
	Score   int       `json:"score" minimum:"0" maximum:"100"`
	Result  string    `json:"result" enum:"good,decent,bad"`
	Failing []string  `json:"failing" doc:"Ids of the checks that failed, sorted."`
	Broken  []string  `json:"broken" doc:"Checks failing in this run that passed in the run before (empty for the first run)."`
	Fixed   []string  `json:"fixed" doc:"Checks passing in this run that failed in the run before."`
}

// historyData lists a report's runs, newest first.
type historyData struct {
	Runs []runData `json:"runs" doc:"At most 100, newest first."`
}

// registerReportHistory registers GET /reports/{id}/history.
func registerReportHistory(g huma.API, rs *reports.Reports, acc *accounts.Accounts) {
	op := huma.Operation{OperationID: "get-report-history", Method: http.MethodGet, Path: "/reports/{id}/history",
		Tags: []string{"Reports"}, Summary: "The runs of one of the caller's reports",
		Description: "Every finished analysis of the report (on creation, re-analysis, or its daily or weekly " +
			"schedule) with its score, result and failing checks, and the checks that changed since the run before " +
			"(broken, fixed); newest first, at most 100. Another user's report is 404."}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *reportIDInput) (*reply[historyData], error) {
		entries, err := rs.History(ctx, caller(ctx).User.ID, in.ID)
		if err != nil {
			return nil, toHTTP(err)
		}
		out := historyData{Runs: make([]runData, 0, len(entries))}
		for _, e := range entries {
			out.Runs = append(out.Runs, runData{At: e.At.UTC(), Score: e.Score, Result: string(e.Rating),
				Failing: list(e.Failing), Broken: list(e.Broken), Fixed: list(e.Fixed)})
		}
		return ok(out), nil
	})
}
