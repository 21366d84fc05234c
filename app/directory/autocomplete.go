package directory

import (
	"context"
	"maps"

	"github.com/pinsight/pinsight/domain/fault"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
	"github.com/pinsight/pinsight/ports"
)

// errNoAutocomplete is the answer of a store that cannot autocomplete.
var errNoAutocomplete = fault.New(fault.Unavailable, "postal: this store does not autocomplete (serve the directory from memory)")

// Autocomplete suggests offices for what was typed, best first: names,
// districts and pincode prefixes that equal the query, start with it, have
// a later word starting with it, or do so within the typed words' edit
// budgets (postal.EditBudget), ignoring case, spacing, punctuation and the
// office-type suffix. limit is 0 for postal.DefaultAutocompleteLimit; with
// near, nearer offices come first at equal match. Bad q, limit or point
// is a *postal.ValidationError listing each field.
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
		return nil, errNoAutocomplete
	}
	return ac.Autocomplete(ctx, aq)
}
