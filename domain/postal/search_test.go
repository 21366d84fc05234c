package postal_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/domain/postal"
)

func TestMatchRank(t *testing.T) {
	tests := []struct {
		candidate, query string
		rank             int
		ok               bool
	}{
		{"siliguri", "siliguri", postal.RankExact, true},
		{"siliguri junction", "siliguri", postal.RankPrefix, true},
		{"siliguri junction", "sili", postal.RankPrefix, true},
		{"new siliguri", "siliguri", postal.RankWord, true},
		{"new siliguri", "sil new", postal.RankWord, true},
		{"new siliguri", "siliguri old", 0, false},
		{"new siliguri", "guri", 0, false},
		{"siliguri", "", 0, false},
	}
	for _, tt := range tests {
		rank, ok := postal.MatchRank(tt.candidate, tt.query)
		if ok != tt.ok || (ok && rank != tt.rank) {
			t.Errorf("MatchRank(%q, %q) = %d, %v; want %d, %v", tt.candidate, tt.query, rank, ok, tt.rank, tt.ok)
		}
	}
}

func TestParseQuery(t *testing.T) {
	tests := []struct {
		in          string
		key, digits string
		ok          bool
	}{
		{"Siliguri", "siliguri", "", true},
		{"  Bagalur S.O  ", "bagalur", "", true},
		{"110", "110", "110", true},
		{"110001", "110001", "110001", true},
		{"1100011", "", "", false},
		{"0110", "", "", false},
		{"", "", "", false},
		{"   ", "", "", false},
		{"...", "", "", false},
		{strings.Repeat("a", postal.MaxQueryLen), strings.Repeat("a", postal.MaxQueryLen), "", true},
		{strings.Repeat("a", postal.MaxQueryLen+1), "", "", false},
	}
	for _, tt := range tests {
		q, err := postal.ParseQuery(tt.in)
		var ve *postal.ValidationError
		switch {
		case tt.ok && (err != nil || q.Key != tt.key || q.Digits != tt.digits):
			t.Errorf("ParseQuery(%q) = %+v, %v; want key %q, digits %q", tt.in, q, err, tt.key, tt.digits)
		case !tt.ok && (!errors.As(err, &ve) || len(ve.Fields["q"]) == 0):
			t.Errorf("ParseQuery(%q) error = %v, want a ValidationError on q", tt.in, err)
		}
	}
}

func TestOfficeRank(t *testing.T) {
	o := &postal.PostOffice{Pincode: "734001", Name: "Siliguri Junction SO"}
	officeKey, districtKeys := postal.OfficeKey(o.Name), []string{postal.NameKey("Darjeeling"), postal.NameKey("Darjiling")}
	query := func(s string) postal.SearchQuery {
		q, err := postal.ParseQuery(s)
		if err != nil {
			t.Fatalf("ParseQuery(%q): %v", s, err)
		}
		return q
	}
	tests := []struct {
		q    string
		rank int
		ok   bool
	}{
		{"734001", 2 * postal.RankExact, true},
		{"7340", 2 * postal.RankPrefix, true},
		{"Siliguri Junction S.O", 2 * postal.RankExact, true},
		{"siliguri", 2 * postal.RankPrefix, true},
		{"junction", 2 * postal.RankWord, true},
		{"darjeeling", 2*postal.RankExact + 1, true}, // a district match ranks after an office match of the same level
		{"darj", 2*postal.RankPrefix + 1, true},
		{"darjiling", 2*postal.RankExact + 1, true}, // India Post's spelling of the district
		{"darji", 2*postal.RankPrefix + 1, true},
		{"7341", 0, false},
		{"kolkata", 0, false},
	}
	for _, tt := range tests {
		rank, ok := postal.OfficeRank(o, officeKey, districtKeys, query(tt.q))
		if ok != tt.ok || (ok && rank != tt.rank) {
			t.Errorf("OfficeRank(%q) = %d, %v; want %d, %v", tt.q, rank, ok, tt.rank, tt.ok)
		}
	}
}

// TestNameMatches: list filters match as search does, and all for an
// empty query.
func TestNameMatches(t *testing.T) {
	for _, c := range []struct {
		name, q string
		want    bool
	}{
		{"uttar pradesh", "", true},
		{"uttar pradesh", "uttar", true},
		{"uttar pradesh", "prad", true},
		{"uttar pradesh", "u p", true},
		{"uttar pradesh", "desh", false},
		{"uttar pradesh", "uttar bihar", false},
	} {
		if got := postal.NameMatches(c.name, c.q); got != c.want {
			t.Errorf("NameMatches(%q, %q) = %v, want %v", c.name, c.q, got, c.want)
		}
	}
	d := postal.DistrictSummary{District: postal.District{Name: "Prayagraj", AltName: "ALLAHABAD"}}
	if !postal.DistrictMatches(d, "allah") || !postal.DistrictMatches(d, "pray") || postal.DistrictMatches(d, "raj") {
		t.Errorf("DistrictMatches on %+v: want the name and India Post's spelling by word start", d)
	}
}
