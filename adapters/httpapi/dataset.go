package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/domain/postal"
)

// datasetData describes the served dataset.
type datasetData struct {
	Source        string                `json:"source" enum:"embedded,files,unknown" doc:"Where the served dataset was read from: embedded (the official snapshot compiled into the binary), files (named by the operator with --data-dir or one flag per file) or unknown (imported into the database by a version that did not record it)."`
	Release       *string               `json:"release" doc:"Publication date of the post office directory (its data.gov.in update date), YYYY-MM-DD; null when not known (files named by the operator)." example:"2025-10-03"`
	Files         []datasetFileData     `json:"files" doc:"The files read, the directory first (empty when the source is unknown)."`
	Licence       string                `json:"licence"`
	LicenceURL    string                `json:"licence_url"`
	Attribution   string                `json:"attribution"`
	Version       string                `json:"version" doc:"Fingerprint of the loaded content (the ETag of data responses; with the counts version in those carrying office records)."`
	LGDCodes      bool                  `json:"lgd_codes" doc:"State and district ids are LGD codes (false: derived from names)."`
	PostOffices   int                   `json:"post_offices"`
	Pincodes      int                   `json:"pincodes"`
	States        int                   `json:"states"`
	Districts     int                   `json:"districts"`
	Villages      int                   `json:"villages"`
	VillageStates []string              `json:"village_coverage" doc:"States the village file covers; other PINs list no villages."`
	Cleaning      postal.CleaningReport `json:"cleaning"`
}

// datasetFileData is one file of the served dataset.
type datasetFileData struct {
	Role   string  `json:"role" enum:"directory,states,districts,legacy_districts,villages"`
	Name   string  `json:"name" doc:"The file's name (without its folder)." example:"all_india_pincode_directory.csv.gz"`
	Date   *string `json:"date" doc:"The file's own publication date, YYYY-MM-DD; null when not known." example:"2025-10-03"`
	Rows   int     `json:"rows" doc:"Data rows read (malformed rows excluded)."`
	SHA256 string  `json:"sha256" doc:"SHA-256 of the file's bytes as stored (compressed or not)."`
}

// newDatasetData is the answer for info.
func newDatasetData(info postal.Info) datasetData {
	src := info.Source
	kind := src.Kind
	if kind == "" {
		kind = postal.SourceUnknown
	}
	files := make([]datasetFileData, 0, len(src.Files))
	for _, f := range src.Files {
		files = append(files, datasetFileData{Role: f.Role, Name: f.Name, Date: optString(f.Date), Rows: f.Rows, SHA256: f.SHA256})
	}
	return datasetData{
		Source: kind, Release: optString(src.Release), Files: files,
		Licence: postal.Licence, LicenceURL: postal.LicenceURL, Attribution: postal.Attribution, Version: info.Version,
		LGDCodes: info.HasLGD, PostOffices: info.Offices, Pincodes: info.Pincodes, States: info.States,
		Districts: info.Districts, Villages: info.Villages, VillageStates: list(info.VillageStates), Cleaning: info.Report,
	}
}

func registerDataset(g huma.API, p *directory.Directory) {
	huma.Register(g, huma.Operation{
		OperationID: "dataset", Method: http.MethodGet, Path: "/dataset", Tags: []string{"Dataset"},
		Summary:     "Source, release, licence, counts and cleaning of the served data",
		Description: "Where the served dataset was read from (its files, with dates, rows and SHA-256), its licence and attribution, its version (the ETag of data answers), how many offices, pincodes, states, districts and villages it holds, and what cleaning changed.",
	}, func(ctx context.Context, _ *struct{}) (*reply[datasetData], error) {
		info, err := p.Info(ctx)
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(newDatasetData(info)), nil
	})
}
