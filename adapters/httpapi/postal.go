package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/app/directory"
)

type pincodeInput struct {
	Pincode string `path:"pincode" doc:"6 digits." example:"110001"`
}

// pincodeData lists the offices of a pincode.
type pincodeData struct {
	Pincode     string       `json:"pincode"`
	Total       int          `json:"total"`
	PostOffices []officeData `json:"post_offices"`
}

type detailsInput struct {
	Pincode    string `path:"pincode" doc:"6 digits." example:"110001"`
	PostOffice string `query:"post_office" maxLength:"200" doc:"Office name; case, punctuation and the B.O / S.O / H.O suffix are ignored. Without it: the head office, else the sub office, else the first branch office by name."`
}

type villagesInput struct {
	Pincode string `path:"pincode" doc:"6 digits." example:"110001"`
	wire.PageParams
}

// villagesData pages the villages of a pincode.
type villagesData struct {
	Pincode  string        `json:"pincode"`
	Villages []villageData `json:"villages"`
	Meta     wire.Meta     `json:"meta"`
}

func registerPostal(api huma.API, p *directory.Directory, cache *BodyCache) {
	g := group(api)
	g.UseMiddleware(cacheable(p, cache))
	tags := []string{"Pincodes"}
	huma.Register(g, huma.Operation{
		Metadata: countsOf(countsPincode), OperationID: "pincode-lookup", Method: http.MethodGet, Path: "/pincodes/{pincode}", Tags: tags,
		Summary: "Post offices of a pincode", Description: "404 when no office has the pincode (000000 included); 422 when it is not 6 digits.",
	}, func(ctx context.Context, in *pincodeInput) (*reply[pincodeData], error) {
		pin, offices, err := p.Lookup(ctx, in.Pincode)
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(pincodeData{Pincode: string(pin), Total: len(offices), PostOffices: officesData(offices)}), nil
	})
	huma.Register(g, huma.Operation{
		Metadata: countsOf(countsPincode), OperationID: "pincode-details", Method: http.MethodGet, Path: "/pincodes/{pincode}/details", Tags: tags,
		Summary:     "One post office of a pincode",
		Description: "The office named by post_office (case, punctuation and the B.O / S.O / H.O suffix ignored; 404 when the pincode has none of that name), or without it the head office, else the sub office, else the first branch office by name. An unknown pincode is 404.",
	}, func(ctx context.Context, in *detailsInput) (*reply[officeData], error) {
		o, err := p.Details(ctx, in.Pincode, in.PostOffice)
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(officeDataOf(o)), nil
	})
	huma.Register(g, huma.Operation{
		OperationID: "pincode-villages", Method: http.MethodGet, Path: "/pincodes/{pincode}/villages", Tags: tags,
		Summary:     "Villages served by a pincode",
		Description: "From the LGD villages file; a pincode outside its coverage (see /dataset) answers an empty list.",
	}, func(ctx context.Context, in *villagesInput) (*reply[villagesData], error) {
		pin, vs, err := p.Villages(ctx, in.Pincode, in.Paging())
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(villagesData{Pincode: string(pin), Villages: villagesDataOf(vs.Items), Meta: metaOf(vs.Page, vs.Total)}), nil
	})
	registerSearch(g, p)
	registerRegions(g, p)
	registerPincodeBatch(g, p)
	registerDataset(g, p)
}
