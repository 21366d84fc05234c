package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/app/directory"
)

type searchInput struct {
	Q string `query:"q" required:"true" maxLength:"100" doc:"Office name, district name, or a pincode / pincode prefix."`
	wire.PageParams
}

// searchData pages search results.
type searchData struct {
	Query   string       `json:"query"`
	Results []officeData `json:"results"`
	Meta    wire.Meta    `json:"meta"`
}

type villageSearchInput struct {
	Q        string `query:"q" required:"true" maxLength:"100" doc:"Village name."`
	State    string `query:"state" maxLength:"100" doc:"Optional state (id, name or prefix)."`
	District string `query:"district" maxLength:"100" doc:"Optional district (id, name or prefix)."`
	wire.PageParams
}

// villageSearchData pages village search results.
type villageSearchData struct {
	Query    string        `json:"query"`
	Villages []villageData `json:"villages"`
	Meta     wire.Meta     `json:"meta"`
}

func registerSearch(g huma.API, p *directory.Directory) {
	huma.Register(g, huma.Operation{
		Metadata: countsOf(countsAny), OperationID: "search-pincodes", Method: http.MethodGet, Path: "/pincodes/search", Tags: []string{"Pincodes"},
		Summary: "Search post offices",
		Description: "Matches office names (ignoring the B.O / S.O / H.O suffix), district names (LGD or India Post's spelling) and pincode prefixes. " +
			"Ranked: exact, then prefix, then word matches (every query word starts a word of the name); at each level " +
			"pincode and office-name matches come before district matches; then by pincode, name and id.",
	}, func(ctx context.Context, in *searchInput) (*reply[searchData], error) {
		offices, err := p.SearchOffices(ctx, in.Q, in.Paging())
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(searchData{Query: in.Q, Results: officesData(offices.Items), Meta: metaOf(offices.Page, offices.Total)}), nil
	})
	huma.Register(g, huma.Operation{
		OperationID: "search-villages", Method: http.MethodGet, Path: "/villages/search", Tags: []string{"Villages"},
		Summary: "Search villages by name", Description: "Ranked exact, prefix, word match; then by name.",
	}, func(ctx context.Context, in *villageSearchInput) (*reply[villageSearchData], error) {
		vs, err := p.SearchVillages(ctx, in.Q, in.State, in.District, in.Paging())
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(villageSearchData{Query: in.Q, Villages: villagesDataOf(vs.Items), Meta: metaOf(vs.Page, vs.Total)}), nil
	})
}
