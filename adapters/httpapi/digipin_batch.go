package httpapi

import (
	"context"
	"fmt"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/digipin"
)

// batchPoint is one point of an encode batch; fields are checked per item.
type batchPoint struct {
	Latitude  *float64 `json:"latitude,omitempty"`
	Longitude *float64 `json:"longitude,omitempty"`
}

type encodeBatchInput struct {
	Body struct {
		Items []batchPoint `json:"items" minItems:"1" doc:"1 to 100 points; more is 413."`
	}
}

type decodeBatchInput struct {
	Body struct {
		Items []string `json:"items" minItems:"1" doc:"1 to 100 codes; more is 413."`
	}
}

// batchItem is the outcome of one item: a result or per-field errors.
type batchItem[T any] struct {
	Index   int                 `json:"index"`
	Success bool                `json:"success"`
	Result  *T                  `json:"result,omitempty"`
	Errors  map[string][]string `json:"errors,omitempty"`
}

// batchData holds per-item outcomes in request order.
type batchData[T any] struct {
	Total     int            `json:"total"`
	Succeeded int            `json:"succeeded"`
	Failed    int            `json:"failed"`
	Results   []batchItem[T] `json:"results"`
}

func (b *batchData[T]) add(i int, v *T, errs map[string][]string) {
	b.Total++
	if errs != nil {
		b.Failed++
	} else {
		b.Succeeded++
	}
	b.Results = append(b.Results, batchItem[T]{Index: i, Success: errs == nil, Result: v, Errors: errs})
}

// checkBatchSize answers 413 for a batch of more than maxBatch items.
func checkBatchSize(n int) error {
	if n > maxBatch {
		return newError(http.StatusRequestEntityTooLarge, fmt.Sprintf("a batch holds at most %d items, got %d", maxBatch, n))
	}
	return nil
}

func registerDigipinBatch(api huma.API) {
	huma.Register(api, huma.Operation{
		OperationID: "digipin-encode-batch", Method: http.MethodPost, Path: "/digipin/encode/batch",
		Summary: "Encode up to 100 points", Tags: []string{"DIGIPIN"},
		Description: "JSON only. Each item succeeds or carries its own errors; the request fails only when malformed or larger than 100 items (413).",
	}, func(_ context.Context, in *encodeBatchInput) (*reply[batchData[encodeData]], error) {
		if err := checkBatchSize(len(in.Body.Items)); err != nil {
			return nil, err
		}
		out := batchData[encodeData]{Results: []batchItem[encodeData]{}}
		for i, p := range in.Body.Items {
			v, errs := encodeItem(p)
			out.add(i, v, errs)
		}
		return ok(out), nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "digipin-decode-batch", Method: http.MethodPost, Path: "/digipin/decode/batch",
		Summary: "Decode up to 100 codes", Tags: []string{"DIGIPIN"},
		Description: "JSON only. Each item succeeds or carries its own errors; more than 100 items is 413.",
	}, func(_ context.Context, in *decodeBatchInput) (*reply[batchData[decodeData]], error) {
		if err := checkBatchSize(len(in.Body.Items)); err != nil {
			return nil, err
		}
		out := batchData[decodeData]{Results: []batchItem[decodeData]{}}
		for i, s := range in.Body.Items {
			c, err := digipin.ParseCode(s)
			if err != nil {
				out.add(i, nil, itemErrors(err))
				continue
			}
			d := decodeDataOf(c, false)
			out.add(i, &d, nil)
		}
		return ok(out), nil
	})
}

func encodeItem(p batchPoint) (*encodeData, map[string][]string) {
	errs := map[string][]string{}
	if p.Latitude == nil {
		errs["latitude"] = []string{"is required"}
	}
	if p.Longitude == nil {
		errs["longitude"] = []string{"is required"}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	c, err := digipin.EncodeCode(*p.Latitude, *p.Longitude)
	if err != nil {
		return nil, itemErrors(err)
	}
	return &encodeData{Digipin: c.String(), Latitude: *p.Latitude, Longitude: *p.Longitude}, nil
}

// itemErrors renders a domain error as the field map of a batch item.
func itemErrors(err error) map[string][]string {
	if body, isBody := toHTTP(err).(*errorBody); isBody && body.Errors != nil {
		return body.Errors
	}
	return map[string][]string{"item": {"cannot be processed"}}
}
