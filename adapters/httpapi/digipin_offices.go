package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/digipin"
)

type cellOfficesInput struct {
	Code string `path:"code" maxLength:"40" doc:"A DIGIPIN or a prefix of 1 to 10 symbols, hyphens optional, either case." example:"39J-49"`
	wire.PageParams
}

// cellOfficesData pages the offices in a DIGIPIN cell.
type cellOfficesData struct {
	Cell    cellData     `json:"cell" doc:"The cell of the code or prefix: its symbols, level, centre and bounds."`
	Total   int          `json:"total" doc:"Offices in the cell."`
	Results []officeData `json:"results" doc:"By pincode, then office name (case and punctuation ignored), then id; empty for a cell with no office."`
	Meta    wire.Meta    `json:"meta"`
}

func registerDigipinOffices(api huma.API, p *directory.Directory, cache *BodyCache) {
	g := group(api)
	g.UseMiddleware(cacheable(p, cache))
	huma.Register(g, huma.Operation{
		Metadata: countsOf(countsAny), OperationID: "digipin-offices", Method: http.MethodGet, Path: "/digipin/{code}/offices", Tags: []string{"DIGIPIN"},
		Summary: "Post offices in a DIGIPIN cell",
		Description: "The post offices whose location lies in the cell of a full code (about 3.8 m) or of a prefix (1 symbol: about " +
			"1000 km; each further symbol divides the side by 4), paginated like the other postal lists: those whose location's " +
			"DIGIPIN starts with the code's symbols (offices without a location are never listed). Ordered by pincode, then " +
			"office name, then id. A valid cell with no office answers 200 with an empty list; a malformed code 422 on code.",
	}, func(ctx context.Context, in *cellOfficesInput) (*reply[cellOfficesData], error) {
		cell, offices, err := p.CellOffices(ctx, in.Code, in.Paging())
		if se, isSyntax := err.(*digipin.SyntaxError); isSyntax {
			return nil, invalid("code", se.Reason())
		} else if err != nil {
			return nil, toHTTP(err)
		}
		return ok(cellOfficesData{Cell: cellDataOf(cell, false), Total: offices.Total, Results: officesData(offices.Items),
			Meta: metaOf(offices.Page, offices.Total)}), nil
	})
}
