package mcp

import (
	"context"
	"fmt"
	"math"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
)

// Bounds this transport sets on arguments (the use cases leave them to
// each transport); the HTTP API's.
const (
	maxText         = 100 // characters of a query, point or name filter
	maxOfficeName   = 200
	maxPerPage      = 100
	defaultRadiusKm = 10
	maxRadiusKm     = 100
	defaultNearby   = 5
	maxNearby       = 50
	defaultNearest  = 3
	maxNearest      = 10
	minRadiusKm     = 0.1
)

type pincodeArgs struct {
	Pincode string `json:"pincode" jsonschema:"The 6-digit Indian PIN code, e.g. 110001."`
}

type pincodeResult struct {
	Pincode     string   `json:"pincode"`
	Total       int      `json:"total"`
	PostOffices []office `json:"post_offices"`
}

type detailsArgs struct {
	Pincode    string `json:"pincode" jsonschema:"The 6-digit PIN code of the office."`
	PostOffice string `json:"post_office,omitempty" jsonschema:"The office's name; case, punctuation and the B.O / S.O / H.O suffix are ignored. Omitted: the head office, else the sub office, else the first branch office by name."`
}

type nearbyArgs struct {
	Latitude  *float64 `json:"latitude,omitempty" jsonschema:"Decimal degrees, -90 to 90; with longitude, unless point is given."`
	Longitude *float64 `json:"longitude,omitempty" jsonschema:"Decimal degrees, -180 to 180; with latitude, unless point is given."`
	Point     string   `json:"point,omitempty" jsonschema:"Instead of latitude and longitude, a point as text: \"28.6, 77.2\", \"28.6N 77.2E\" or degrees-minutes-seconds."`
	Radius    float64  `json:"radius,omitempty" jsonschema:"Search radius in km, 0.1 to 100; default 10."`
	Limit     int      `json:"limit,omitempty" jsonschema:"Most offices returned, 1 to 50; default 5."`
}

type nearbyResult struct {
	Latitude     float64        `json:"latitude"`
	Longitude    float64        `json:"longitude"`
	RadiusKm     float64        `json:"radius_km"`
	WithinRadius bool           `json:"within_radius" jsonschema:"False when no office lay within the radius: post_offices are then the closest at any distance."`
	PostOffices  []nearbyOffice `json:"post_offices" jsonschema:"Nearest first."`
}

type searchArgs struct {
	Q       string `json:"q" jsonschema:"What to search for: an office name, a district name, or a PIN code or its first digits."`
	Page    int    `json:"page,omitempty" jsonschema:"Page number from 1; default 1."`
	PerPage int    `json:"per_page,omitempty" jsonschema:"Results per page, 1 to 100; default 10."`
}

type searchResult struct {
	Query   string   `json:"query"`
	Results []office `json:"results"`
	Meta    pageMeta `json:"meta"`
}

type autocompleteArgs struct {
	Q         string   `json:"q" jsonschema:"What the user typed so far: part of an office name, a district name, or a PIN code's first digits. Typing errors, case, spacing and the B.O / S.O / H.O suffix are forgiven."`
	Limit     int      `json:"limit,omitempty" jsonschema:"Most suggestions, 1 to 50; default 10."`
	Latitude  *float64 `json:"latitude,omitempty" jsonschema:"Optional, with longitude: at equal match nearer offices come first."`
	Longitude *float64 `json:"longitude,omitempty" jsonschema:"Optional, with latitude."`
}

type suggestion struct {
	Office     office   `json:"office"`
	Field      string   `json:"matched_field" jsonschema:"What matched: name, pincode or district."`
	Kind       string   `json:"match_kind" jsonschema:"exact, prefix, word or fuzzy."`
	Text       string   `json:"matched_text" jsonschema:"The matched name, district or PIN code, as published."`
	Edits      int      `json:"edits" jsonschema:"Typing errors forgiven; 0 unless fuzzy."`
	DistanceKm *float64 `json:"distance_km" jsonschema:"From the given point; null without one or when the office has no location."`
}

type autocompleteResult struct {
	Query       string       `json:"query"`
	Suggestions []suggestion `json:"suggestions" jsonschema:"Best first."`
}

type statesArgs struct {
	Q string `json:"q,omitempty" jsonschema:"Only states a word of whose name starts with this (every word of q must start one)."`
}

type state struct {
	ID               int    `json:"id" jsonschema:"LGD state code."`
	Name             string `json:"name"`
	DistrictsCount   int    `json:"districts_count"`
	PincodesCount    int    `json:"pincodes_count"`
	PostOfficesCount int    `json:"post_offices_count"`
}

type statesResult struct {
	Total  int     `json:"total"`
	States []state `json:"states"`
}

type districtsArgs struct {
	State string `json:"state" jsonschema:"The state: its LGD code, exact name or a unique name prefix (e.g. Kerala, 32)."`
	Q     string `json:"q,omitempty" jsonschema:"Only districts a word of whose name (LGD or India Post's spelling) starts with this (every word of q must start one)."`
}

type district struct {
	ID               int     `json:"id" jsonschema:"LGD district code."`
	Name             string  `json:"name" jsonschema:"LGD name."`
	AltName          *string `json:"alt_name" jsonschema:"India Post's spelling when it differs, else null."`
	PincodesCount    int     `json:"pincodes_count"`
	PostOfficesCount int     `json:"post_offices_count"`
}

type districtsResult struct {
	State     string     `json:"state"`
	Total     int        `json:"total"`
	Districts []district `json:"districts"`
}

// readOnly marks a tool that changes nothing.
var readOnly = &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(bool)}

func (t *tools) addPostal(s *sdk.Server) {
	dir := t.Directory
	addTool(s, t, &sdk.Tool{Name: "pincode_lookup", Title: "Post offices of a PIN code", Annotations: readOnly,
		Description: "List every India Post office serving a 6-digit PIN code, with its branch type, delivery status, " +
			"district, state, location and DIGIPIN. Use it to check a PIN code exists or to find which locality it is; " +
			"not_found when no office has it."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in pincodeArgs) (pincodeResult, string, error) {
			pin, offices, err := dir.Lookup(ctx, in.Pincode)
			if err != nil {
				return pincodeResult{}, "", err
			}
			out := pincodeResult{Pincode: string(pin), Total: len(offices), PostOffices: officesOf(offices)}
			return out, fmt.Sprintf("PIN %s: %d post offices (%s)", pin, len(offices), officeNames(offices, 5)), nil
		})
	addTool(s, t, &sdk.Tool{Name: "office_details", Title: "One post office", Annotations: readOnly,
		Description: "One post office of a PIN code, by name, or the PIN's main office when no name is given. Use it " +
			"when the user names an office; pincode_lookup lists them all."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in detailsArgs) (office, string, error) {
			if err := checkLen("post_office", in.PostOffice, maxOfficeName); err != nil {
				return office{}, "", err
			}
			o, err := dir.Details(ctx, in.Pincode, in.PostOffice)
			if err != nil {
				return office{}, "", err
			}
			return officeOf(o), describeOffice(o), nil
		})
	addTool(s, t, &sdk.Tool{Name: "nearby_offices", Title: "Post offices near a point", Annotations: readOnly,
		Description: "Post offices within a radius of a point (latitude and longitude, or a point as text), nearest first " +
			"with distances in km. When none lies within the radius, the closest at any distance, within_radius false. " +
			"For the offices serving a point (by PIN boundary when loaded) with its DIGIPIN, use digipin_nearest."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in nearbyArgs) (nearbyResult, string, error) {
			at, err := pointOf(in.Point, in.Latitude, in.Longitude, geo.WorldBox)
			bad := argErrors{}
			in.Radius = bounded(bad, "radius", in.Radius, defaultRadiusKm, minRadiusKm, maxRadiusKm)
			in.Limit = int(bounded(bad, "limit", float64(in.Limit), defaultNearby, 1, maxNearby))
			if err != nil {
				return nearbyResult{}, "", err
			}
			if err := bad.err(); err != nil {
				return nearbyResult{}, "", err
			}
			res, err := dir.Nearby(ctx, geo.NearQuery{Point: at, RadiusKm: in.Radius, Limit: in.Limit})
			if err != nil {
				return nearbyResult{}, "", err
			}
			out := nearbyResult{Latitude: at.Lat, Longitude: at.Lon, RadiusKm: in.Radius, WithinRadius: res.WithinRadius,
				PostOffices: make([]nearbyOffice, len(res.Offices))}
			for i, n := range res.Offices {
				out.PostOffices[i] = nearbyOf(n)
			}
			text := fmt.Sprintf("%d post offices near %.5f, %.5f", len(out.PostOffices), at.Lat, at.Lon)
			if len(res.Offices) > 0 {
				n := res.Offices[0]
				text += fmt.Sprintf("; nearest %s (PIN %s), %.1f km", n.Office.Name, n.Office.Pincode, n.DistanceKm)
			}
			return out, text, nil
		})
	addTool(s, t, &sdk.Tool{Name: "search_offices", Title: "Search post offices", Annotations: readOnly,
		Description: "Search post offices by office name (the B.O / S.O / H.O suffix ignored), district name or PIN code " +
			"prefix, ranked exact, then prefix, then word matches. Use it when the user knows a place's name but not its PIN."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in searchArgs) (searchResult, string, error) {
			page, err := pageOf(in.Page, in.PerPage, checkLen("q", in.Q, maxText))
			if err != nil {
				return searchResult{}, "", err
			}
			res, err := dir.SearchOffices(ctx, in.Q, page)
			if err != nil {
				return searchResult{}, "", err
			}
			out := searchResult{Query: in.Q, Results: officesOf(res.Items), Meta: metaOf(res.Page, res.Total)}
			return out, fmt.Sprintf("%d offices match %q; page %d of %d: %s", res.Total, in.Q, out.Meta.CurrentPage,
				out.Meta.LastPage, officeNames(res.Items, 5)), nil
		})
	addTool(s, t, &sdk.Tool{Name: "autocomplete_offices", Title: "Suggest post offices as the user types", Annotations: readOnly,
		Description: "Suggest post offices for a partial or misspelt name, district or PIN prefix (one typing error forgiven in " +
			"a word of 4 to 7 letters, two from 8), best first: exact, prefix, word, then fuzzy matches; head and sub offices " +
			"before branch offices; nearer first with a point. Use it when the user's spelling is uncertain; search_offices pages " +
			"through exact and prefix matches."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in autocompleteArgs) (autocompleteResult, string, error) {
			bad := argErrors{}
			addErr(bad, checkLen("q", in.Q, maxText))
			var near *geo.Point
			switch {
			case in.Latitude != nil && in.Longitude != nil:
				near = &geo.Point{Lat: *in.Latitude, Lon: *in.Longitude}
			case in.Latitude != nil:
				bad.add("longitude", "is required with latitude")
			case in.Longitude != nil:
				bad.add("latitude", "is required with longitude")
			}
			if err := bad.err(); err != nil {
				return autocompleteResult{}, "", err
			}
			res, err := dir.Autocomplete(ctx, in.Q, in.Limit, near)
			if err != nil {
				return autocompleteResult{}, "", err
			}
			out := autocompleteResult{Query: in.Q, Suggestions: make([]suggestion, len(res))}
			offices := make([]postal.PostOffice, len(res))
			for i, sg := range res {
				out.Suggestions[i] = suggestion{Office: officeOf(sg.Office), Field: string(sg.Field), Kind: string(sg.Kind), Text: sg.Text, Edits: sg.Edits}
				if sg.DistanceKm >= 0 {
					km := math.Round(sg.DistanceKm*1000) / 1000
					out.Suggestions[i].DistanceKm = &km
				}
				offices[i] = sg.Office
			}
			return out, fmt.Sprintf("%d suggestions for %q: %s", len(res), in.Q, officeNames(offices, 5)), nil
		})
	addTool(s, t, &sdk.Tool{Name: "list_states", Title: "States and union territories", Annotations: readOnly,
		Description: "India's states and union territories with their LGD codes and counts of districts, PIN codes and post offices."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in statesArgs) (statesResult, string, error) {
			if err := checkLen("q", in.Q, maxText); err != nil {
				return statesResult{}, "", err
			}
			states, err := dir.States(ctx, in.Q)
			if err != nil {
				return statesResult{}, "", err
			}
			out := statesResult{Total: len(states), States: make([]state, len(states))}
			names := make([]string, len(states))
			for i, s := range states {
				out.States[i] = state{ID: s.ID, Name: s.Name, DistrictsCount: s.DistrictsCount, PincodesCount: s.PincodesCount, PostOfficesCount: s.PostOfficesCount}
				names[i] = s.Name
			}
			return out, fmt.Sprintf("%d states: %s", len(states), strings.Join(names, ", ")), nil
		})
	addTool(s, t, &sdk.Tool{Name: "list_districts", Title: "Districts of a state", Annotations: readOnly,
		Description: "The districts of a state with their LGD codes and counts of PIN codes and post offices. An ambiguous " +
			"state prefix is invalid_argument listing the candidates."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in districtsArgs) (districtsResult, string, error) {
			bad := argErrors{}
			addErr(bad, checkLen("state", in.State, maxText))
			addErr(bad, checkLen("q", in.Q, maxText))
			if err := bad.err(); err != nil {
				return districtsResult{}, "", err
			}
			st, ds, err := dir.Districts(ctx, in.State, in.Q)
			if err != nil {
				return districtsResult{}, "", err
			}
			out := districtsResult{State: st.Name, Total: len(ds), Districts: make([]district, len(ds))}
			names := make([]string, len(ds))
			for i, d := range ds {
				out.Districts[i] = district{ID: d.ID, Name: d.Name, AltName: optString(d.AltName), PincodesCount: d.PincodesCount, PostOfficesCount: d.PostOfficesCount}
				names[i] = d.Name
			}
			return out, fmt.Sprintf("%s: %d districts: %s", st.Name, len(ds), strings.Join(names, ", ")), nil
		})
}

// pointOf is the point of a tool's arguments: point parsed (inside box),
// or latitude and longitude, never both forms and never neither.
func pointOf(point string, lat, lon *float64, box geo.Box) (geo.Point, error) {
	if point != "" {
		if lat != nil || lon != nil {
			return geo.Point{}, argError("point", "give either point or latitude and longitude, not both")
		}
		if err := checkLen("point", point, maxText); err != nil {
			return geo.Point{}, err
		}
		return geocode.ParsePoint(point, box)
	}
	bad := argErrors{}
	if lat == nil {
		bad.add("latitude", "is required (or give point)")
	}
	if lon == nil {
		bad.add("longitude", "is required (or give point)")
	}
	if err := bad.err(); err != nil {
		return geo.Point{}, err
	}
	return geo.Point{Lat: *lat, Lon: *lon}, nil
}

// pageOf checks paging arguments (with earlier, an error of other
// arguments, or nil) and returns the page.
func pageOf(number, perPage int, earlier error) (paging.Page, error) {
	bad := argErrors{}
	addErr(bad, earlier)
	if number < 0 {
		bad.add("page", "must be 1 or more")
	}
	if perPage < 0 || perPage > maxPerPage {
		bad.add("per_page", fmt.Sprintf("must be from 1 to %d", maxPerPage))
	}
	return paging.Page{Number: number, PerPage: perPage}, bad.err()
}

// bounded is v, or def when v is 0; a v outside lo..hi is recorded in bad.
func bounded(bad argErrors, name string, v, def, lo, hi float64) float64 {
	if v == 0 {
		return def
	}
	if !(v >= lo && v <= hi) {
		bad.add(name, fmt.Sprintf("must be from %v to %v", lo, hi))
	}
	return v
}

// checkLen refuses a text argument longer than max characters.
func checkLen(name, s string, max int) error {
	if n := len([]rune(s)); n > max {
		return argError(name, fmt.Sprintf("is %d characters long: at most %d allowed", n, max))
	}
	return nil
}

// addErr merges the argument errors of err (an argErrors, or nil) into bad.
func addErr(bad argErrors, err error) {
	if a, ok := err.(argErrors); ok {
		for k, v := range a {
			bad[k] = append(bad[k], v...)
		}
	}
}

// officeNames lists up to n office names, saying how many more there are.
func officeNames(offices []postal.PostOffice, n int) string {
	names := make([]string, 0, n)
	for i, o := range offices {
		if i == n {
			names = append(names, fmt.Sprintf("and %d more", len(offices)-n))
			break
		}
		names = append(names, o.Name)
	}
	return strings.Join(names, ", ")
}

// describeOffice is an office in one line.
func describeOffice(o postal.PostOffice) string {
	s := fmt.Sprintf("%s (%s), PIN %s, %s", o.Name, postal.BranchTypeName(o.OfficeType), o.Pincode, o.Delivery)
	if o.District != "" {
		s += ", " + o.District
	}
	if o.State != "" {
		s += ", " + o.State
	}
	return s
}
