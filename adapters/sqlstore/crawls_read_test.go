package sqlstore

import (
	"maps"
	"testing"
)

// TestCountChecks counts the ids of failing lists as SQLite stores them
// (compact), as PostgreSQL's jsonb gives them back (spaced), with an
// escape (decoded), and refuses a broken one.
func TestCountChecks(t *testing.T) {
	counts := map[string]*int{}
	for _, list := range []string{`["headings","https"]`, `[]`, `["headings", "hsts"]`, `["a\"b","headings"]`} {
		if err := countChecks([]byte(list), counts); err != nil {
			t.Fatalf("countChecks(%s) = %v", list, err)
		}
	}
	got := map[string]int{}
	for check, n := range counts {
		got[check] = *n
	}
	if want := map[string]int{"headings": 3, "https": 1, "hsts": 1, `a"b`: 1}; !maps.Equal(got, want) {
		t.Errorf("counts = %v, want %v", got, want)
	}
	if err := countChecks([]byte(`["headings`), counts); err == nil {
		t.Error("countChecks of an unterminated list = nil")
	}
}
