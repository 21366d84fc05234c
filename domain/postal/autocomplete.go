package postal

import "strings"

// Autocomplete limits.
const (
	DefaultAutocompleteLimit = 10
	MaxAutocompleteLimit     = 50
)

// MatchKind says how a suggestion matched what was typed, best first.
type MatchKind string

// Match kinds, in rank order.
const (
	MatchExact  MatchKind = "exact"  // the whole name (or pincode) equals the query
	MatchPrefix MatchKind = "prefix" // the name (or pincode) starts with the query
	MatchWord   MatchKind = "word"   // a later word of the name starts with the query
	MatchFuzzy  MatchKind = "fuzzy"  // the same, within the typed words' edit budgets
)

// MatchField says what of an office matched.
type MatchField string

// Matched fields; at equal match kind, name and pincode before district.
const (
	FieldName     MatchField = "name"
	FieldPincode  MatchField = "pincode"
	FieldDistrict MatchField = "district"
)

// AutocompleteQuery is a normalised autocomplete request.
type AutocompleteQuery struct {
	SearchQuery
	// Compact is Key without spaces: how names are compared for the exact
	// and prefix kinds ("ram nagar" and "ramnagar" match alike).
	Compact string
	// Words are Key's words, for the word and fuzzy kinds; the last may be
	// unfinished.
	Words []string
	Limit int       // 1 to MaxAutocompleteLimit
	Near  *Location // nil: no preference for nearer offices
}

// ParseAutocomplete normalises what was typed (see ParseQuery) for
// autocompletion: a last word that begins an office-type suffix ("Bagalur
// S", "Bagalur S.") is dropped, as complete suffixes are. limit is 0 for
// the default; near may be nil. Bad input is a *ValidationError on q or
// limit (the point is the caller's to check).
func ParseAutocomplete(q string, limit int, near *Location) (AutocompleteQuery, error) {
	sq, err := ParseQuery(q)
	fields := map[string][]string{}
	if err != nil {
		fields = err.(*ValidationError).Fields
	}
	if limit < 0 || limit > MaxAutocompleteLimit {
		fields["limit"] = []string{"must be 1 to 50 (0: 10)"}
	}
	if len(fields) > 0 {
		return AutocompleteQuery{}, &ValidationError{Fields: fields}
	}
	if limit == 0 {
		limit = DefaultAutocompleteLimit
	}
	words := strings.Fields(sq.Key)
	if n := len(words); n > 1 && isSuffixStart(words[n-1]) {
		words = words[:n-1]
		sq.Key = strings.Join(words, " ")
	}
	return AutocompleteQuery{SearchQuery: sq, Compact: strings.Join(words, ""), Words: words, Limit: limit, Near: near}, nil
}

// isSuffixStart reports whether w is an office-type suffix or its start.
func isSuffixStart(w string) bool {
	for _, s := range officeSuffixes {
		if strings.HasPrefix(s, w) {
			return true
		}
	}
	return false
}

// Suggestion is an office suggested for what was typed.
type Suggestion struct {
	Office PostOffice
	Field  MatchField
	Kind   MatchKind
	Text   string // the matched name, district or pincode, as published
	Edits  int    // typing errors forgiven (fuzzy matches only)
	// DistanceKm is the office's distance from the query's point; negative
	// without a point or a location.
	DistanceKm float64
}

// OfficeClass orders office types for suggestions: head and sub offices
// (0) before branch offices (1).
func OfficeClass(officeType string) int {
	if officeType == TypeBranch {
		return 1
	}
	return 0
}
