package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app/directory"
)

type searchInput struct {
	Q string `query:"q" required:"true" maxLength:"100" doc:"Office name, district name, or a pincode / pincode prefix."`
	PageParams
}

// SearchData pages search results.
type SearchData struct {
	Query   string       `json:"query"`
	Results []OfficeData `json:"results"`
	Meta    Meta         `json:"meta"`
}

type villageSearchInput struct {
	Q        string `query:"q" required:"true" maxLength:"100" doc:"Village name."`
	State    string `query:"state" maxLength:"100" doc:"Optional state (id, name or prefix)."`
	District string `query:"district" maxLength:"100" doc:"Optional district (id, name or prefix)."`
	PageParams
}

// VillageSearchData pages village search results.
type VillageSearchData struct {
	Query    string        `json:"query"`
	Villages []VillageData `json:"villages"`
	Meta     Meta          `json:"meta"`
}

func registerSearch(g huma.API, p *directory.Directory) {
	huma.Register(g, huma.Operation{
		Metadata: countsOf(countsAny), OperationID: "search-pincodes", Method: http.MethodGet, Path: "/pincodes/search", Tags: []string{"Pincodes"},
		Summary: "Search post offices",
		Description: "Matches office names (ignoring the B.O / S.O / H.O suffix), district names (LGD or India Post's spelling) and pincode prefixes. " +
			"Ranked: exact, then prefix, then word matches (every query word starts a word of the name); at each level " +
			"pincode and office-name matches come before district matches; then by pincode, name and id.",
	}, func(ctx context.Context, in *searchInput) (*Reply[SearchData], error) {
		offices, err := p.SearchOffices(ctx, in.Q, in.page())
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(SearchData{Query: in.Q, Results: officesData(offices.Items), Meta: meta(offices.Page, offices.Total)}), nil
	})
	huma.Register(g, huma.Operation{
		OperationID: "search-villages", Method: http.MethodGet, Path: "/villages/search", Tags: []string{"Villages"},
		Summary: "Search villages by name", Description: "Ranked exact, prefix, word match; then by name.",
	}, func(ctx context.Context, in *villageSearchInput) (*Reply[VillageSearchData], error) {
		vs, err := p.SearchVillages(ctx, in.Q, in.State, in.District, in.page())
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(VillageSearchData{Query: in.Q, Villages: villagesData(vs.Items), Meta: meta(vs.Page, vs.Total)}), nil
	})
}
