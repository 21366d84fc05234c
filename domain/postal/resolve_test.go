package postal_test

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/domain/postal"
)

func resolveStates() []postal.StateSummary {
	var out []postal.StateSummary
	for _, s := range []postal.State{
		{ID: 10, Name: "Bihar"}, {ID: 38, Name: "Dadra and Nagar Haveli and Daman and Diu"}, {ID: 7, Name: "Delhi"},
		{ID: 23, Name: "Madhya Pradesh"}, {ID: 27, Name: "Maharashtra"}, {ID: 14, Name: "Manipur"}, {ID: 19, Name: "West Bengal"},
	} {
		out = append(out, postal.StateSummary{State: s})
	}
	return out
}

func resolveDistricts() []postal.DistrictSummary {
	d := func(id int, name, alt string, stateID int, state string) postal.DistrictSummary {
		return postal.DistrictSummary{District: postal.District{ID: id, Name: name, AltName: alt, StateID: stateID}, StateName: state}
	}
	return []postal.DistrictSummary{
		d(303, "North 24 Parganas", "24 Paraganas North", 19, "West Bengal"),
		d(189, "Aurangabad", "", 10, "Bihar"),
		d(77, "Central", "", 7, "Delhi"),
		d(796, "Central North", "", 7, "Delhi"),
		d(469, "Chhatrapati Sambhajinagar", "Aurangabad", 27, "Maharashtra"),
		d(17, "Hamirpur", "", 2, "Himachal Pradesh"),
		d(149, "Hamirpur", "", 9, "Uttar Pradesh"),
		d(409, "Narmadapuram", "Hoshangabad", 23, "Madhya Pradesh"),
	}
}

// resolveOutcome is what a resolution gave: an id, or the kind of error
// with the candidates of an ambiguous one.
type resolveOutcome struct {
	id         int
	err        string // "", "invalid", "not_found", "ambiguous"
	candidates []string
}

func outcomeOf(id int, err error) resolveOutcome {
	var amb *postal.AmbiguousError
	var ve *postal.ValidationError
	switch {
	case err == nil:
		return resolveOutcome{id: id}
	case errors.As(err, &amb):
		labels := make([]string, len(amb.Candidates))
		for i, c := range amb.Candidates {
			labels[i] = c.Label()
		}
		return resolveOutcome{err: "ambiguous", candidates: labels}
	case errors.As(err, &ve):
		return resolveOutcome{err: "invalid"}
	case errors.Is(err, postal.ErrNotFound):
		return resolveOutcome{err: "not_found"}
	}
	return resolveOutcome{err: err.Error()}
}

func TestResolveState(t *testing.T) {
	tests := []struct {
		ref  string
		want resolveOutcome
	}{
		{"7", resolveOutcome{id: 7}},
		{" 19 ", resolveOutcome{id: 19}},
		{"99", resolveOutcome{err: "not_found"}},
		{"-1", resolveOutcome{err: "not_found"}},
		{"Delhi", resolveOutcome{id: 7}},
		{"DELHI", resolveOutcome{id: 7}},
		{"west-bengal", resolveOutcome{id: 19}},
		{"Wes", resolveOutcome{id: 19}},
		{"mah", resolveOutcome{id: 27}},
		{"Ma", resolveOutcome{err: "ambiguous", candidates: []string{"14 Manipur", "23 Madhya Pradesh", "27 Maharashtra"}}},
		{"D", resolveOutcome{err: "ambiguous", candidates: []string{"38 Dadra and Nagar Haveli and Daman and Diu", "7 Delhi"}}},
		{"Atlantis", resolveOutcome{err: "not_found"}},
		{"", resolveOutcome{err: "invalid"}},
		{"   ", resolveOutcome{err: "invalid"}},
		{"THE DADRA AND NAGAR HAVELI AND DAMAN AND DIU", resolveOutcome{id: 38}}, // India Post's spelling
		{"The Dadra", resolveOutcome{id: 38}},
		{"The", resolveOutcome{err: "not_found"}},
		{"The Atlantis", resolveOutcome{err: "not_found"}},
	}
	for _, tt := range tests {
		s, err := postal.ResolveState(tt.ref, resolveStates())
		if got := outcomeOf(s.ID, err); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ResolveState(%q) = %+v (%v), want %+v", tt.ref, got, err, tt.want)
		}
	}
}

func TestResolveDistrict(t *testing.T) {
	tests := []struct {
		ref  string
		want resolveOutcome
	}{
		{"77", resolveOutcome{id: 77}},
		{"central", resolveOutcome{id: 77}}, // an exact name beats a longer name it prefixes
		{"Central N", resolveOutcome{id: 796}},
		{"Cent", resolveOutcome{err: "ambiguous", candidates: []string{"77 Central (Delhi)", "796 Central North (Delhi)"}}},
		{"Hamirpur", resolveOutcome{err: "ambiguous", candidates: []string{"149 Hamirpur (Uttar Pradesh)", "17 Hamirpur (Himachal Pradesh)"}}},
		{"Aurangabad", resolveOutcome{err: "ambiguous", candidates: []string{"189 Aurangabad (Bihar)", "469 Chhatrapati Sambhajinagar (Maharashtra)"}}},
		{"Hoshangabad", resolveOutcome{id: 409}}, // India Post's spelling
		{"hosh", resolveOutcome{id: 409}},
		{"24 paraganas north", resolveOutcome{id: 303}},
		{"North 24", resolveOutcome{id: 303}},
		{"Chhatrapati", resolveOutcome{id: 469}},
		{"Nowhere", resolveOutcome{err: "not_found"}},
		{"", resolveOutcome{err: "invalid"}},
	}
	for _, tt := range tests {
		d, err := postal.ResolveDistrict(tt.ref, resolveDistricts())
		if got := outcomeOf(d.ID, err); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ResolveDistrict(%q) = %+v (%v), want %+v", tt.ref, got, err, tt.want)
		}
	}
}

func TestAmbiguousErrorFields(t *testing.T) {
	_, err := postal.ResolveDistrict("Hamirpur", resolveDistricts())
	var amb *postal.AmbiguousError
	if !errors.As(err, &amb) {
		t.Fatalf("error %v, want an AmbiguousError", err)
	}
	if got := amb.FieldErrors()["district"]; len(got) != 1 || !strings.Contains(got[0], "matches several") {
		t.Fatalf("FieldErrors()[district] = %q, want the one hint (the candidates are beside the errors)", got)
	}
	want := []postal.Candidate{{ID: 149, Name: "Hamirpur", State: "Uttar Pradesh"}, {ID: 17, Name: "Hamirpur", State: "Himachal Pradesh"}}
	if !slices.Equal(amb.Candidates, want) || amb.Candidates[0].Label() != "149 Hamirpur (Uttar Pradesh)" {
		t.Fatalf("Candidates = %+v, want %+v", amb.Candidates, want)
	}
}
