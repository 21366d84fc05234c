package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/domain/postal"
)

type pincodeBatchInput struct {
	Body struct {
		Pincodes []string `json:"pincodes" minItems:"1" doc:"1 to 100 pincodes; more is 413."`
	}
}

// pincodeBatchItem is one pincode's outcome.
type pincodeBatchItem struct {
	Pincode     string       `json:"pincode" doc:"As sent."`
	Status      string       `json:"status" enum:"found,not_found,invalid"`
	Total       int          `json:"total"`
	PostOffices []officeData `json:"post_offices,omitempty"`
	Errors      []string     `json:"errors,omitempty"`
	Terminated  bool         `json:"terminated,omitempty" doc:"not_found only: true when an earlier release of the directory had the pincode (a terminated PIN); absent otherwise."`
	LastRelease string       `json:"last_release,omitempty" doc:"With terminated: the last release that had the pincode (see /dataset/changes)." example:"2025-10-03"`
}

// pincodeBatchData holds the outcomes in request order.
type pincodeBatchData struct {
	Total    int                `json:"total"`
	Found    int                `json:"found"`
	NotFound int                `json:"not_found"`
	Invalid  int                `json:"invalid"`
	Results  []pincodeBatchItem `json:"results"`
}

// pincodeValidateItem tells whether one pincode is well-formed and exists.
type pincodeValidateItem struct {
	Pincode string  `json:"pincode"`
	Valid   bool    `json:"valid" doc:"Syntax: 6 digits (000000 is well-formed and exists nowhere)."`
	Exists  bool    `json:"exists" doc:"At least one post office has it."`
	Reason  *string `json:"reason"`
}

// pincodeValidateData holds the checks in request order.
type pincodeValidateData struct {
	Total   int                   `json:"total"`
	Valid   int                   `json:"valid"`
	Exists  int                   `json:"exists"`
	Results []pincodeValidateItem `json:"results"`
}

const notFoundReason = "no post office has this pincode"

func registerPincodeBatch(g huma.API, p *directory.Directory) {
	tags := []string{"Pincodes"}
	huma.Register(g, huma.Operation{
		OperationID: "pincode-batch", Method: http.MethodPost, Path: "/pincodes/batch", Tags: tags,
		Summary: "Look up up to 100 pincodes", Description: "JSON only. Each pincode is found, not_found or invalid; more than 100 is 413.",
	}, func(ctx context.Context, in *pincodeBatchInput) (*reply[pincodeBatchData], error) {
		items, err := batch(ctx, p, in.Body.Pincodes)
		if err != nil {
			return nil, err
		}
		out := pincodeBatchData{Total: len(items), Results: make([]pincodeBatchItem, len(items))}
		for i, it := range items {
			r := pincodeBatchItem{Pincode: it.Input, Status: string(it.Status), Total: len(it.Offices), PostOffices: officesData(it.Offices)}
			switch it.Status {
			case directory.BatchFound:
				out.Found++
			case directory.BatchNotFound:
				out.NotFound++
				r.Errors = []string{notFoundReason}
				if it.Terminated {
					r.Terminated, r.LastRelease = true, it.LastRelease.Name()
				}
			case directory.BatchInvalid:
				out.Invalid++
				r.Errors = []string{postal.PincodeSyntax}
			}
			out.Results[i] = r
		}
		return ok(out), nil
	})
	huma.Register(g, huma.Operation{
		OperationID: "pincode-validate", Method: http.MethodPost, Path: "/pincodes/validate", Tags: tags,
		Summary: "Check the syntax and existence of up to 100 pincodes", Description: "JSON only; more than 100 is 413.",
	}, func(ctx context.Context, in *pincodeBatchInput) (*reply[pincodeValidateData], error) {
		items, err := batch(ctx, p, in.Body.Pincodes)
		if err != nil {
			return nil, err
		}
		out := pincodeValidateData{Total: len(items), Results: make([]pincodeValidateItem, len(items))}
		for i, it := range items {
			r := pincodeValidateItem{Pincode: it.Input, Valid: it.Status != directory.BatchInvalid, Exists: it.Status == directory.BatchFound}
			switch {
			case !r.Valid:
				r.Reason = optString(postal.PincodeSyntax)
			case !r.Exists:
				r.Reason = optString(notFoundReason)
			}
			if r.Valid {
				out.Valid++
			}
			if r.Exists {
				out.Exists++
			}
			out.Results[i] = r
		}
		return ok(out), nil
	})
}

func batch(ctx context.Context, p *directory.Directory, pins []string) ([]directory.BatchItem, error) {
	if err := checkBatchSize(len(pins)); err != nil {
		return nil, err
	}
	items, err := p.Batch(ctx, pins)
	return items, toHTTP(err)
}
