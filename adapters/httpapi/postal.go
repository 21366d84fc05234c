package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/domain/paging"
)

// PageParams are the pagination query parameters of postal lists. Their
// bounds (at most 100 items a page) are the API's, in the schema: huma
// answers 422 beyond them; the use cases take any page size.
type PageParams struct {
	Page    int `query:"page" default:"1" minimum:"1" doc:"Page number; beyond the last page the list is empty."`
	PerPage int `query:"per_page" default:"10" minimum:"1" maximum:"100" doc:"Items per page, 1 to 100."`
}

func (p PageParams) page() paging.Page { return paging.Page{Number: p.Page, PerPage: p.PerPage} }

type pincodeInput struct {
	Pincode string `path:"pincode" doc:"6 digits, the first not 0." example:"110001"`
}

// PincodeData lists the offices of a pincode.
type PincodeData struct {
	Pincode     string       `json:"pincode"`
	Total       int          `json:"total"`
	PostOffices []OfficeData `json:"post_offices"`
}

type detailsInput struct {
	Pincode    string `path:"pincode"`
	PostOffice string `query:"post_office" maxLength:"200" doc:"Office name; case, punctuation and the B.O / S.O / H.O suffix are ignored. Without it: the head office, else the sub office, else the first branch office by name."`
}

type villagesInput struct {
	Pincode string `path:"pincode"`
	PageParams
}

// VillagesData pages the villages of a pincode.
type VillagesData struct {
	Pincode  string        `json:"pincode"`
	Villages []VillageData `json:"villages"`
	Meta     Meta          `json:"meta"`
}

func registerPostal(api huma.API, p *directory.Directory, cache *BodyCache) {
	g := group(api)
	g.UseMiddleware(cacheable(p, cache))
	tags := []string{"Pincodes"}
	huma.Register(g, huma.Operation{
		Metadata: countsOf(countsPincode), OperationID: "pincode-lookup", Method: http.MethodGet, Path: "/pincodes/{pincode}", Tags: tags,
		Summary: "Post offices of a pincode", Description: "404 when no office has the pincode; 422 when it is not 6 digits.",
	}, func(ctx context.Context, in *pincodeInput) (*Reply[PincodeData], error) {
		pin, offices, err := p.Lookup(ctx, in.Pincode)
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(PincodeData{Pincode: string(pin), Total: len(offices), PostOffices: officesData(offices)}), nil
	})
	huma.Register(g, huma.Operation{
		Metadata: countsOf(countsPincode), OperationID: "pincode-details", Method: http.MethodGet, Path: "/pincodes/{pincode}/details", Tags: tags,
		Summary: "One post office of a pincode",
	}, func(ctx context.Context, in *detailsInput) (*Reply[OfficeData], error) {
		o, err := p.Details(ctx, in.Pincode, in.PostOffice)
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(officeData(o)), nil
	})
	huma.Register(g, huma.Operation{
		OperationID: "pincode-villages", Method: http.MethodGet, Path: "/pincodes/{pincode}/villages", Tags: tags,
		Summary:     "Villages served by a pincode",
		Description: "From the LGD villages file; a pincode outside its coverage (see /dataset) answers an empty list.",
	}, func(ctx context.Context, in *villagesInput) (*Reply[VillagesData], error) {
		pin, vs, err := p.Villages(ctx, in.Pincode, in.page())
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(VillagesData{Pincode: string(pin), Villages: villagesData(vs.Items), Meta: meta(vs.Page, vs.Total)}), nil
	})
	registerSearch(g, p)
	registerRegions(g, p)
	registerPincodeBatch(g, p)
	registerDataset(g, p)
}
