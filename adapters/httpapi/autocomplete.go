package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
)

type autocompleteInput struct {
	Q         string  `query:"q" required:"true" maxLength:"100" doc:"What the user typed so far: part of an office name, a district name, or a pincode prefix. Case, spacing, punctuation and the office-type suffix (B.O, S.O, H.O, GPO) are ignored." example:"conaught pl"`
	Limit     int     `query:"limit" default:"10" minimum:"1" maximum:"50" doc:"Most suggestions returned, 1 to 50."`
	Latitude  float64 `query:"latitude" minimum:"-90" maximum:"90" doc:"Optional, with longitude: at equal match, nearer offices come first. Decimal degrees, -90 to 90." example:"28.6139"`
	Longitude float64 `query:"longitude" minimum:"-180" maximum:"180" doc:"Optional, with latitude. Decimal degrees, -180 to 180." example:"77.209"`
	hasPoint  bool    // set by Resolve: both were given
}

// Resolve requires latitude and longitude together.
func (in *autocompleteInput) Resolve(ctx huma.Context) []error {
	lat, lon := ctx.Query("latitude") != "", ctx.Query("longitude") != ""
	switch {
	case lat && !lon:
		return []error{fieldError("query.longitude", "is required with latitude")}
	case lon && !lat:
		return []error{fieldError("query.latitude", "is required with longitude")}
	}
	in.hasPoint = lat
	return nil
}

// near is the request's point, nil without one.
func (in *autocompleteInput) near() *geo.Point {
	if !in.hasPoint {
		return nil
	}
	return &geo.Point{Lat: in.Latitude, Lon: in.Longitude}
}

// suggestionOffice is the office of a suggestion.
type suggestionOffice struct {
	ID         int64   `json:"id" doc:"Stable for a dataset release; GET /api/v1/offices/{id} has the whole record."`
	PostOffice string  `json:"post_office" doc:"Name as published."`
	Pincode    string  `json:"pincode"`
	BranchType string  `json:"branch_type" enum:"Head Office,Sub Office,Branch Office"`
	District   *string `json:"district" doc:"LGD name; null when unknown."`
	State      *string `json:"state" doc:"LGD name; null when unknown."`
}

// suggestionMatch says what of the office matched, and how.
type suggestionMatch struct {
	Field string `json:"field" enum:"name,pincode,district" doc:"What matched: the office's name, its pincode, or its district's name (LGD or India Post's spelling)."`
	Kind  string `json:"kind" enum:"exact,prefix,word,fuzzy" doc:"exact: equals the query; prefix: starts with it; word: a later word starts with it; fuzzy: as word or prefix, with typing errors forgiven."`
	Text  string `json:"text" doc:"The matched name, district or pincode, as published."`
	Edits int    `json:"edits" doc:"Typing errors forgiven (insertions, deletions, substitutions, transpositions of adjacent letters); 0 unless fuzzy."`
}

// suggestionData is one suggestion.
type suggestionData struct {
	Office     suggestionOffice `json:"office"`
	Matched    suggestionMatch  `json:"matched"`
	DistanceKm *float64         `json:"distance_km" doc:"From latitude / longitude; null without them or when the office has no location."`
}

// autocompleteData lists the suggestions for a query.
type autocompleteData struct {
	Query       string           `json:"query"`
	Suggestions []suggestionData `json:"suggestions" doc:"Best first."`
}

func suggestionDataOf(s *postal.Suggestion) suggestionData {
	o := &s.Office
	d := suggestionData{
		Office: suggestionOffice{ID: o.ID, PostOffice: o.Name, Pincode: string(o.Pincode), BranchType: postal.BranchTypeName(o.OfficeType),
			District: optString(o.District), State: optString(o.State)},
		Matched: suggestionMatch{Field: string(s.Field), Kind: string(s.Kind), Text: s.Text, Edits: s.Edits},
	}
	if s.DistanceKm >= 0 {
		km := roundKm(s.DistanceKm)
		d.DistanceKm = &km
	}
	return d
}

func registerAutocomplete(api huma.API, p *directory.Directory) {
	g := group(api)
	g.UseMiddleware(cacheable(p, nil)) // what users type is endless: no body cache
	huma.Register(g, huma.Operation{
		OperationID: "pincode-autocomplete", Method: http.MethodGet, Path: "/pincodes/autocomplete", Tags: []string{"Pincodes"},
		Summary: "Suggest post offices as the user types",
		Description: "Suggestions over office names, district names and pincode prefixes, forgiving typing errors: one edit in a word of " +
			"4 to 7 letters, two from 8 (an edit is an insertion, a deletion, a substitution or a transposition of adjacent letters), " +
			"and ignoring case, spacing (\"ramnagar\" finds \"Ram Nagar\"), punctuation and the office-type suffix; an unfinished " +
			"suffix at the end (\"Bagalur S\") is ignored too. Ranked: exact, then prefix, then word (a later word of the name starts " +
			"with the query), then fuzzy; at equal match fewer edits, name and pincode matches before district matches, head and sub " +
			"offices before branch offices, nearer offices first when latitude and longitude are given, then shorter names, then by name. " +
			"A district match suggests the district's offices. 422 on each bad field (q, limit, latitude, longitude).",
	}, func(ctx context.Context, in *autocompleteInput) (*reply[autocompleteData], error) {
		found, err := p.Autocomplete(ctx, in.Q, in.Limit, in.near())
		if err != nil {
			return nil, toHTTP(err)
		}
		d := autocompleteData{Query: in.Q, Suggestions: make([]suggestionData, len(found))}
		for i := range found {
			d.Suggestions[i] = suggestionDataOf(&found[i])
		}
		return ok(d), nil
	})
}
