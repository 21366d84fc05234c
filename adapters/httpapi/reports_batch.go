package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/report"
)

type reportBatchInput struct {
	IdempotencyKey string `header:"Idempotency-Key" maxLength:"255" doc:"Optional name of this request, as for create-report: sent again by the same user within 24 hours with the same body, it queues nothing and answers 202 with the reports it queued as they are now (Idempotent-Replayed: true; deleted ones left out); with another body 422; while the first runs 409."`
	Body           struct {
		URLs     []string `json:"urls" minItems:"1" maxItems:"100" doc:"1 to 100 URLs to analyse (http or https), each at most 2,048 characters."`
		Privacy  *int     `json:"privacy,omitempty" enum:"0,1,2" doc:"Of every report: 0 public, 1 private (default), 2 password."`
		Render   *string  `json:"render,omitempty" enum:"off,on,auto" doc:"How every report of the batch loads its page, as in create-report: on and auto take one rendered analysis per URL from the daily quota of renders when accepted."`
		Password *string  `json:"password,omitempty" maxLength:"1024" doc:"Required with privacy 2 (one password for every report), refused otherwise."`
		// Screenshot is which screenshots every report keeps.
		Screenshot *string `json:"screenshot,omitempty" enum:"viewport,full" doc:"Which screenshots every report's rendered analyses keep, as in create-report: viewport (default) or full (422 with render off)."`
	}
}

// reportBatchData lists the reports a batch queued, in the order of its URLs.
type reportBatchData struct {
	Reports []wire.ReportItem `json:"reports" doc:"One pending report per URL, in the order sent."`
}

// batchReply is the answer of create-report-batch.
type batchReply struct {
	Status   int    `json:"-"`
	Replayed string `header:"Idempotent-Replayed" doc:"true when the answer replays an earlier request with the same Idempotency-Key; absent otherwise."`
	Body     envelope[reportBatchData]
}

// registerReportBatch registers POST /reports/batch.
func registerReportBatch(g huma.API, base string, rs *reports.Reports, acc *accounts.Accounts) {
	op := huma.Operation{OperationID: "create-report-batch", Method: http.MethodPost, Path: "/reports/batch",
		Tags: []string{"Reports"}, DefaultStatus: http.StatusAccepted, Summary: "Queue the analysis of up to 100 URLs",
		Description: "Stores one pending report per URL, with its analysis job, in one transaction and answers 202 " +
			"at once; poll each report (GET /reports/{id}, or GET /reports?status=pending) until it is generated or " +
			"failed. Any invalid URL is 422 on urls[i] (every one is listed) and nothing is queued. The whole batch " +
			"is charged to the caller's daily quota of analyses when it is accepted, all or nothing: a batch that " +
			"does not fit is 429 with Retry-After (until all of it fits) and a message saying how many of its URLs " +
			"fit now, and nothing is queued; one larger than the whole daily quota never fits and is 422 on urls. " +
			"Its jobs, their retries included, are then free of the daily quota. The per-site throttle spreads a " +
			"batch in time instead of failing it (past a site's quota, each further quota's worth of its URLs is " +
			"scheduled one window later), and a job that meets a throttle or the caller's analyses at once waits " +
			"for it. Jobs retry as those of create-report. An Idempotency-Key makes a retry safe (see the " +
			"header). JSON only."}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *reportBatchInput) (*batchReply, error) {
		out, err := rs.CreateBatch(ctx, caller(ctx).User.ID, reports.NewBatch{URLs: in.Body.URLs, Privacy: in.Body.Privacy,
			Password: in.Body.Password, IdempotencyKey: in.IdempotencyKey, Render: in.Body.Render, Screenshot: in.Body.Screenshot})
		if err != nil {
			return nil, toHTTP(err)
		}
		data := reportBatchData{Reports: make([]wire.ReportItem, 0, len(out.Reports))}
		for _, r := range out.Reports {
			data.Reports = append(data.Reports, reportItem(base, r))
		}
		reply := &batchReply{Status: outcomeStatus[report.OutcomeAccepted], Body: envelope[reportBatchData]{Success: true, Data: data}}
		if out.Replayed {
			reply.Replayed = "true"
		}
		return reply, nil
	})
}
