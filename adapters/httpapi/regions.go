package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/app/directory"
)

type statesInput struct {
	Q string `query:"q" maxLength:"100" doc:"Name filter, as search matches: the start of the name or of any of its words (every word of q must start one); case and punctuation ignored." example:"pradesh"`
}

// statesData lists states.
type statesData struct {
	Total  int         `json:"total"`
	States []stateData `json:"states"`
}

type stateInput struct {
	State string `path:"state" doc:"LGD id, exact name or unique name prefix." example:"7"`
}

type stateDistrictsInput struct {
	State string `path:"state" doc:"LGD id, exact name or unique name prefix." example:"7"`
	Q     string `query:"q" maxLength:"100" doc:"District name filter (LGD name or India Post's spelling), as search matches: the start of the name or of any of its words (every word of q must start one); case and punctuation ignored."`
}

// stateDistrictsData lists a state's districts.
type stateDistrictsData struct {
	State     string         `json:"state"`
	Total     int            `json:"total"`
	Districts []districtItem `json:"districts"`
}

type districtInput struct {
	District string `path:"district" doc:"LGD id, exact name or unique name prefix." example:"77"`
}

type districtPincodesInput struct {
	District string `path:"district" doc:"LGD id, exact name or unique name prefix." example:"77"`
	wire.PageParams
}

// districtPincodesData pages a district's offices.
type districtPincodesData struct {
	District string       `json:"district"`
	State    string       `json:"state"`
	Total    int          `json:"total"`
	Results  []officeData `json:"results"`
	Meta     wire.Meta    `json:"meta"`
}

const refDoc = " An ambiguous name or prefix is 422 listing the candidates; an unknown one is 404."

func registerRegions(g huma.API, p *directory.Directory) {
	tags := []string{"States and districts"}
	huma.Register(g, huma.Operation{OperationID: "list-states", Method: http.MethodGet, Path: "/states", Tags: tags, Summary: "States and union territories",
		Description: "Every state and union territory of the dataset with its counts, or those whose name matches q."},
		func(ctx context.Context, in *statesInput) (*reply[statesData], error) {
			states, err := p.States(ctx, in.Q)
			if err != nil {
				return nil, toHTTP(err)
			}
			out := statesData{Total: len(states), States: make([]stateData, len(states))}
			for i, s := range states {
				out.States[i] = stateDataOf(s)
			}
			return ok(out), nil
		})
	huma.Register(g, huma.Operation{OperationID: "get-state", Method: http.MethodGet, Path: "/states/{state}", Tags: tags, Summary: "A state with its counts", Description: refDoc},
		func(ctx context.Context, in *stateInput) (*reply[stateData], error) {
			s, err := p.State(ctx, in.State)
			if err != nil {
				return nil, toHTTP(err)
			}
			return ok(stateDataOf(s)), nil
		})
	huma.Register(g, huma.Operation{OperationID: "state-districts", Method: http.MethodGet, Path: "/states/{state}/districts", Tags: tags, Summary: "Districts of a state", Description: refDoc},
		func(ctx context.Context, in *stateDistrictsInput) (*reply[stateDistrictsData], error) {
			s, ds, err := p.Districts(ctx, in.State, in.Q)
			if err != nil {
				return nil, toHTTP(err)
			}
			out := stateDistrictsData{State: s.Name, Total: len(ds), Districts: make([]districtItem, len(ds))}
			for i, d := range ds {
				out.Districts[i] = districtItemOf(d)
			}
			return ok(out), nil
		})
	huma.Register(g, huma.Operation{OperationID: "get-district", Method: http.MethodGet, Path: "/districts/{district}", Tags: tags, Summary: "A district with its state and counts", Description: refDoc},
		func(ctx context.Context, in *districtInput) (*reply[districtData], error) {
			d, err := p.District(ctx, in.District)
			if err != nil {
				return nil, toHTTP(err)
			}
			return ok(districtDataOf(d)), nil
		})
	huma.Register(g, huma.Operation{Metadata: countsOf(countsAny), OperationID: "district-pincodes", Method: http.MethodGet, Path: "/districts/{district}/pincodes", Tags: tags,
		Summary: "Post offices of a district, by pincode", Description: "total counts offices." + refDoc},
		func(ctx context.Context, in *districtPincodesInput) (*reply[districtPincodesData], error) {
			d, offices, err := p.DistrictOffices(ctx, in.District, in.Paging())
			if err != nil {
				return nil, toHTTP(err)
			}
			return ok(districtPincodesData{District: d.Name, State: d.StateName, Total: offices.Total, Results: officesData(offices.Items), Meta: metaOf(offices.Page, offices.Total)}), nil
		})
}
