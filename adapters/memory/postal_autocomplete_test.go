package memory_test

import (
	"context"
	"testing"

	"github.com/pinsight/pinsight/domain/postal"
)

// TestAutocompleteSnapshot checks matching and ranking on the real
// directory: the first suggestion for what was typed, how it matched, and
// the offices that must not come first.
func TestAutocompleteSnapshot(t *testing.T) {
	s := snapshotDirectory(t)
	type want struct {
		id    int64
		field postal.MatchField
		kind  postal.MatchKind
		edits int
	}
	for _, c := range []struct {
		name string
		q    string
		near *postal.Location
		want want
		at   int // which suggestion is checked
	}{
		{"prefix of a name", "connaugh", nil, want{7, postal.FieldName, postal.MatchPrefix, 0}, 0},
		{"case and suffix", "CONNAUGHT PLACE S.O.", nil, want{7, postal.FieldName, postal.MatchExact, 0}, 0},
		{"spacing dropped", "connaughtplace", nil, want{7, postal.FieldName, postal.MatchExact, 0}, 0},
		{"typo: missing letter", "conaught pl", nil, want{7, postal.FieldName, postal.MatchFuzzy, 1}, 0},
		{"typo: transposition, 8+ letters", "tiruvanantapuram", nil, want{124667, postal.FieldName, postal.MatchFuzzy, 2}, 0},
		{"head office before sub offices of the district", "pune", nil, want{53748, postal.FieldName, postal.MatchExact, 0}, 0},
		{"district exact before prefix names", "thiruvananthapuram", nil, want{124667, postal.FieldName, postal.MatchExact, 0}, 0},
		{"district before later words", "central", nil, want{0, postal.FieldDistrict, postal.MatchExact, 0}, 0},
		{"later word after the prefix", "cantt", nil, want{0, postal.FieldName, postal.MatchWord, 0}, 1},
		{"pincode", "110001", nil, want{0, postal.FieldPincode, postal.MatchExact, 0}, 0},
		{"pincode prefix", "11000", nil, want{0, postal.FieldPincode, postal.MatchPrefix, 0}, 0},
		{"unfinished suffix", "bagalur s", nil, want{106852, postal.FieldName, postal.MatchExact, 0}, 0},
		{"nearer first: Karimnagar", "ramnagar", &postal.Location{Latitude: 18.43, Longitude: 79.13}, want{83706, postal.FieldName, postal.MatchExact, 0}, 0},
		{"nearer first: Jalna", "ram nagar", &postal.Location{Latitude: 19.84, Longitude: 75.88}, want{61588, postal.FieldName, postal.MatchExact, 0}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			q, err := postal.ParseAutocomplete(c.q, 0, c.near)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Autocomplete(context.Background(), q)
			if err != nil || len(got) <= c.at {
				t.Fatalf("Autocomplete(%q) = %d suggestions, %v", c.q, len(got), err)
			}
			f := got[c.at]
			if (c.want.id != 0 && f.Office.ID != c.want.id) || f.Field != c.want.field || f.Kind != c.want.kind || f.Edits != c.want.edits {
				t.Errorf("Autocomplete(%q)[%d] = %d %q %s %s %d edits, want %+v", c.q, c.at, f.Office.ID, f.Office.Name, f.Field, f.Kind, f.Edits, c.want)
			}
			checkOrder(t, c.q, got)
		})
	}
}

// checkOrder checks that kinds never improve down the list, and that at
// equal kind and edits head and sub offices come before branch offices.
func checkOrder(t *testing.T, q string, got []postal.Suggestion) {
	t.Helper()
	kinds := map[postal.MatchKind]int{postal.MatchExact: 0, postal.MatchPrefix: 1, postal.MatchWord: 2, postal.MatchFuzzy: 3}
	seen := map[int64]bool{}
	for i, g := range got {
		if seen[g.Office.ID] {
			t.Errorf("%q: office %d suggested twice", q, g.Office.ID)
		}
		seen[g.Office.ID] = true
		if i == 0 {
			continue
		}
		p := got[i-1]
		switch {
		case kinds[p.Kind] > kinds[g.Kind], p.Kind == g.Kind && p.Edits > g.Edits:
			t.Errorf("%q: %s (%s %d) after %s (%s %d)", q, g.Office.Name, g.Kind, g.Edits, p.Office.Name, p.Kind, p.Edits)
		case p.Kind == g.Kind && p.Edits == g.Edits && p.Field == g.Field &&
			postal.OfficeClass(p.Office.OfficeType) > postal.OfficeClass(g.Office.OfficeType):
			t.Errorf("%q: %s %s after branch office %s", q, g.Office.OfficeType, g.Office.Name, p.Office.Name)
		}
	}
}

// TestAutocompleteBudgets checks the typing errors forgiven: one in a word
// of 4 to 7 letters, two from 8, none below 4.
func TestAutocompleteBudgets(t *testing.T) {
	s := snapshotDirectory(t)
	for _, c := range []struct {
		q       string
		wantID  int64 // must be among the suggestions; 0: must not be
		notID   int64
		comment string
	}{
		{q: "tiruvanantapuram", wantID: 124667, comment: "two edits in 16 letters"},
		{q: "thiruvananthapuarm", wantID: 124667, comment: "one transposition"},
		{q: "pnue", wantID: 53748, comment: "a transposition in 4 letters is one edit"},
		{q: "pxnx", notID: 53748, comment: "two edits in 4 letters are too many"},
		{q: "thxruvxnxnthapuram", notID: 124667, comment: "three edits in 8+ letters are too many"},
		{q: "mumbia central", wantID: 52400, comment: "a typo in a first word of several"},
		{q: "mumbai cnetral", wantID: 52400, comment: "a typo in a last, unfinished word"},
	} {
		q, err := postal.ParseAutocomplete(c.q, postal.MaxAutocompleteLimit, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Autocomplete(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		ids := map[int64]bool{}
		for _, g := range got {
			ids[g.Office.ID] = true
		}
		if c.wantID != 0 && !ids[c.wantID] {
			t.Errorf("%q (%s): office %d not suggested in %d", c.q, c.comment, c.wantID, len(got))
		}
		if c.notID != 0 && ids[c.notID] {
			t.Errorf("%q (%s): office %d suggested", c.q, c.comment, c.notID)
		}
		checkOrder(t, c.q, got)
	}
}

// TestAutocompleteLimit checks the limit and the empty store.
func TestAutocompleteLimit(t *testing.T) {
	s := snapshotDirectory(t)
	for _, limit := range []int{1, 10, 50} {
		q, _ := postal.ParseAutocomplete("ram", limit, nil)
		got, err := s.Autocomplete(context.Background(), q)
		if err != nil || len(got) != limit {
			t.Errorf("limit %d: %d suggestions, %v", limit, len(got), err)
		}
	}
}
