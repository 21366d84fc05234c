package mcp

import (
	"cmp"
	"context"
	"encoding/json"
	"strconv"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pinsight/pinsight/domain/postal"
)

// Resource addresses.
const (
	datasetURI     = "pinsight://dataset"
	reportTemplate = "pinsight://reports/{id}"
	reportPrefix   = "pinsight://reports/"
)

// dataset is the provenance and licence of the served directory.
type dataset struct {
	Source      string              `json:"source" jsonschema:"embedded, files or unknown."`
	Release     string              `json:"release,omitempty" jsonschema:"Publication date of the directory, YYYY-MM-DD."`
	Files       []postal.SourceFile `json:"files"`
	Licence     string              `json:"licence"`
	LicenceURL  string              `json:"licence_url"`
	Attribution string              `json:"attribution" jsonschema:"Credit to give when quoting the data."`
	Version     string              `json:"version" jsonschema:"Fingerprint of the loaded content."`
	PostOffices int                 `json:"post_offices"`
	Pincodes    int                 `json:"pincodes"`
	States      int                 `json:"states"`
	Districts   int                 `json:"districts"`
	Villages    int                 `json:"villages"`
}

func (t *tools) addResources(s *sdk.Server) {
	s.AddResource(&sdk.Resource{URI: datasetURI, Name: "dataset", Title: "Dataset provenance and licence", MIMEType: "application/json",
		Description: "Where the postal directory was read from (release date, files with their SHA-256), its counts, and its " +
			"licence (GODL-India) with the attribution to give when quoting it."},
		func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			info, err := t.Directory.Info(ctx)
			if err != nil {
				return nil, t.resourceError(ctx, req.Params.URI, err)
			}
			src := info.Source
			d := dataset{Source: cmp.Or(src.Kind, postal.SourceUnknown), Release: src.Release, Files: src.Files,
				Licence: postal.Licence, LicenceURL: postal.LicenceURL, Attribution: postal.Attribution, Version: info.Version,
				PostOffices: info.Offices, Pincodes: info.Pincodes, States: info.States, Districts: info.Districts, Villages: info.Villages}
			if d.Files == nil {
				d.Files = []postal.SourceFile{}
			}
			return jsonResource(req.Params.URI, d)
		})
	if t.Reports == nil || t.Authenticate == nil {
		return
	}
	s.AddResourceTemplate(&sdk.ResourceTemplate{URITemplate: reportTemplate, Name: "report", Title: "Site-analysis report (API key)",
		MIMEType: "application/json", Description: "One of the user's reports with its checks, as get_report returns it. Needs an API key."},
		func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			uri := req.Params.URI
			id, err := strconv.ParseInt(strings.TrimPrefix(uri, reportPrefix), 10, 64)
			if err != nil || id <= 0 {
				return nil, sdk.ResourceNotFoundError(uri)
			}
			user, err := t.userID(ctx, req.Extra)
			if err != nil {
				return nil, t.resourceError(ctx, uri, err)
			}
			r, err := t.Reports.Get(ctx, user, id)
			if err != nil {
				return nil, t.resourceError(ctx, uri, err)
			}
			return jsonResource(uri, reportDataOf(r))
		})
}

// jsonResource is v as the JSON contents of uri.
func jsonResource(uri string, v any) (*sdk.ReadResourceResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(b)}}}, nil
}
