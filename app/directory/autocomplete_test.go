package directory_test

import (
	"context"
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

// searchOnly is a postal store without an autocomplete index: only the
// ports.PostalStore methods of the memory store show through.
type searchOnly struct{ ports.PostalStore }

// TestAutocompleteFromSearch: a store that cannot autocomplete answers
// with its search's matches, each saying what matched, instead of an
// error; with a point, each carries its distance.
func TestAutocompleteFromSearch(t *testing.T) {
	dir := directory.New(searchOnly{memory.NewPostalStore(porttest.PostalDataset())})
	if _, ok := any(searchOnly{}).(ports.PostalAutocomplete); ok {
		t.Fatal("the wrapper autocompletes: the test would not test the fallback")
	}
	got, err := dir.Autocomplete(context.Background(), "patna", 3, &geo.Point{Lat: 25.61, Lon: 85.14})
	if err != nil || len(got) == 0 {
		t.Fatalf("Autocomplete(patna) on a search-only store = %v, %v; want suggestions", got, err)
	}
	for _, s := range got {
		if s.Field != postal.FieldName || s.Kind == postal.MatchFuzzy || s.Edits != 0 || s.Office.Location != nil && s.DistanceKm < 0 {
			t.Errorf("suggestion %+v: want a name match of the search, no edits, a distance", s)
		}
	}
	got, err = dir.Autocomplete(context.Background(), "800001", 1, nil)
	if err != nil || len(got) != 1 || got[0].Field != postal.FieldPincode || got[0].Kind != postal.MatchExact || got[0].DistanceKm >= 0 {
		t.Errorf("Autocomplete(800001) on a search-only store = %+v, %v; want one exact pincode match, no distance", got, err)
	}
}
