package directory

import (
	"context"
	"maps"
	"strings"

	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
	"github.com/pinsight/pinsight/ports"
)

// Autocomplete suggests offices for what was typed, best first: names,
// districts and pincode prefixes that equal the query, start with it, have
// a later word starting with it, or do so within the typed words' edit
// budgets (postal.EditBudget), ignoring case, spacing, punctuation and the
// office-type suffix. limit is 0 for postal.DefaultAutocompleteLimit; with
// near, nearer offices come first at equal match. Bad q, limit or point
// is a *postal.ValidationError listing each field. A store without an
// autocomplete index (ports.PostalAutocomplete: the per-request PostgreSQL
// store) answers with its search's exact, prefix and word matches, without
// typing errors forgiven (searchSuggestions).
func (dir *Directory) Autocomplete(ctx context.Context, q string, limit int, near *geo.Point) ([]postal.Suggestion, error) {
	var at *postal.Location
	fields := map[string][]string{}
	if near != nil {
		fields = pointErrors(*near)
		at = &postal.Location{Latitude: near.Lat, Longitude: near.Lon}
	}
	aq, err := postal.ParseAutocomplete(q, limit, at)
	if ve, ok := err.(*postal.ValidationError); ok {
		maps.Copy(fields, ve.Fields)
	}
	if len(fields) > 0 {
		return nil, &postal.ValidationError{Fields: fields}
	}
	ac, ok := dir.store.(ports.PostalAutocomplete)
	if !ok {
		return dir.searchSuggestions(ctx, aq)
	}
	return ac.Autocomplete(ctx, aq)
}

// searchSuggestions answers q from the store's search: its first page of
// q.Limit offices, in the search's rank, each with what matched.
func (dir *Directory) searchSuggestions(ctx context.Context, q postal.AutocompleteQuery) ([]postal.Suggestion, error) {
	offices, _, err := dir.store.SearchOffices(ctx, q.SearchQuery, paging.Page{Number: 1, PerPage: q.Limit})
	if err != nil {
		return nil, err
	}
	out := make([]postal.Suggestion, len(offices))
	for i, o := range offices {
		s := postal.Suggestion{Office: o, Field: postal.FieldName, Kind: postal.MatchWord, Text: o.Name, DistanceKm: -1}
		key := strings.ReplaceAll(postal.OfficeKey(o.Name), " ", "")
		switch {
		case q.Digits != "":
			s.Field, s.Text, s.Kind = postal.FieldPincode, string(o.Pincode), postal.MatchPrefix
			if string(o.Pincode) == q.Digits {
				s.Kind = postal.MatchExact
			}
		case key == q.Compact:
			s.Kind = postal.MatchExact
		case strings.HasPrefix(key, q.Compact):
			s.Kind = postal.MatchPrefix
		}
		if q.Near != nil && o.Location != nil {
			s.DistanceKm = geo.DistanceKm(geo.Point{Lat: q.Near.Latitude, Lon: q.Near.Longitude},
				geo.Point{Lat: o.Location.Latitude, Lon: o.Location.Longitude})
		}
		out[i] = s
	}
	return out, nil
}
