package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app"
	"github.com/pinsight/pinsight/domain/postal"
)

// Attribution is the GODL attribution the data licence asks for.
const Attribution = "Department of Posts, Ministry of Communications, Government of India, All India Pincode Directory " +
	"till last month; Ministry of Panchayati Raj, Local Government Directory (states, districts, villages with PIN codes); " +
	"Open Government Data Platform India, Government Open Data License - India (GODL)."

// DatasetData describes the served dataset.
type DatasetData struct {
	Source        string                `json:"source"`
	Release       string                `json:"release" doc:"data.gov.in update date of the directory."`
	Licence       string                `json:"licence"`
	Attribution   string                `json:"attribution"`
	Version       string                `json:"version" doc:"Fingerprint of the loaded content (the ETag of data responses)."`
	LGDCodes      bool                  `json:"lgd_codes" doc:"State and district ids are LGD codes (false: derived from names)."`
	PostOffices   int                   `json:"post_offices"`
	Pincodes      int                   `json:"pincodes"`
	States        int                   `json:"states"`
	Districts     int                   `json:"districts"`
	Villages      int                   `json:"villages"`
	VillageStates []string              `json:"village_coverage" doc:"States the village file covers; other PINs list no villages."`
	Cleaning      postal.CleaningReport `json:"cleaning"`
}

func registerDataset(g huma.API, p *app.Postal) {
	huma.Register(g, huma.Operation{
		OperationID: "dataset", Method: http.MethodGet, Path: "/dataset", Tags: []string{"Dataset"},
		Summary: "Source, licence, counts and cleaning of the served data",
	}, func(ctx context.Context, _ *struct{}) (*Reply[DatasetData], error) {
		info, err := p.Info(ctx)
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(DatasetData{
			Source:  "India Post All India Pincode Directory (data.gov.in) and the Local Government Directory",
			Release: "2025-10-03", Licence: "GODL-India", Attribution: Attribution, Version: info.Version,
			LGDCodes: info.HasLGD, PostOffices: info.Offices, Pincodes: info.Pincodes, States: info.States,
			Districts: info.Districts, Villages: info.Villages, VillageStates: info.VillageStates, Cleaning: info.Report,
		}), nil
	})
}
