package postal_test

import (
	"errors"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pinsight/pinsight/domain/postal"
)

// FuzzParseCoordinate checks that any text parses without panicking to a
// finite value or to nothing.
func FuzzParseCoordinate(f *testing.F) {
	for _, s := range []string{"28.622788", "28.430354° N", "18.856818°", "25.43 N", "17°57'17.7\"", "26.52 12743", "NA", "", "-0", "1e400", "NaN", "+Inf", "9" + strings.Repeat("9", 400), "77°12′47″E", "3'2'1'0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, _, ok := postal.ParseCoordinate(s)
		if ok && (math.IsNaN(v) || math.IsInf(v, 0)) {
			t.Fatalf("ParseCoordinate(%q) = %v, want a finite value", s, v)
		}
	})
}

// FuzzCleanLocation checks that cleaning never yields a point outside
// India's box, and that a point and a rule always agree.
func FuzzCleanLocation(f *testing.F) {
	for _, p := range [][2]string{{"28.6", "77.2"}, {"77.2", "28.6"}, {"0", "0"}, {"NA", "77"}, {"20", "20"}, {"28.43° N", "77.1° E"}, {"91", "181"}, {"-28.6", "-77.2"}, {"38.5", "99.5"}, {"2.5", "63.5"}} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, latText, lonText string) {
		loc, quality, rule := postal.CleanLocation(latText, lonText)
		if loc == nil {
			if quality != postal.QualityMissing {
				t.Fatalf("CleanLocation(%q, %q): no point but quality %q", latText, lonText, quality)
			}
			return
		}
		if loc.Latitude < postal.MinLatitude || loc.Latitude > postal.MaxLatitude ||
			loc.Longitude < postal.MinLongitude || loc.Longitude > postal.MaxLongitude {
			t.Fatalf("CleanLocation(%q, %q) = %+v (%s), outside India's box", latText, lonText, *loc, rule)
		}
		if rule != postal.RuleExact && rule != postal.RuleSwapped && rule != postal.RuleReparsed {
			t.Fatalf("CleanLocation(%q, %q) = %+v with rule %q", latText, lonText, *loc, rule)
		}
	})
}

// FuzzParsePincode checks that only [0-9]{6} (trimmed) is accepted
// and that rejections are field errors on "pincode".
func FuzzParsePincode(f *testing.F) {
	for _, s := range []string{"110001", " 110001\n", "011001", "11000", "1100011", "１１０００１", "", "11000a", "-11000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pin, err := postal.ParsePincode(s)
		if err != nil {
			if fieldsOf(err)["pincode"] == nil {
				t.Fatalf("ParsePincode(%q) error %v has no pincode field", s, err)
			}
			return
		}
		p := string(pin)
		if len(p) != 6 || strings.Trim(p, "0123456789") != "" || p != strings.TrimSpace(s) {
			t.Fatalf("ParsePincode(%q) = %q, not a pincode", s, p)
		}
	})
}

// FuzzParseQuery checks that a search query is either rejected on field q
// or normalised to a non-empty key, with Digits only for a valid prefix.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"delhi", "New Delhi GPO", "1100", "0110", "1234567", "   ", "'; DROP TABLE offices; --", "<script>", "ಬೆಂಗಳೂರು", strings.Repeat("a", 101), "\x00\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := postal.ParseQuery(s)
		if err != nil {
			if fieldsOf(err)["q"] == nil {
				t.Fatalf("ParseQuery(%q) error %v has no q field", s, err)
			}
			return
		}
		if q.Key == "" {
			t.Fatalf("ParseQuery(%q) key %q", s, q.Key)
		}
		if utf8.RuneCountInString(strings.TrimSpace(s)) > postal.MaxQueryLen {
			t.Fatalf("ParseQuery accepted %d characters", utf8.RuneCountInString(s))
		}
		if d := q.Digits; d != "" && (len(d) > 6 || d[0] == '0' || strings.Trim(d, "0123456789") != "") {
			t.Fatalf("ParseQuery(%q) digits %q", s, d)
		}
	})
}

func fieldsOf(err error) map[string][]string {
	var ve *postal.ValidationError
	if !errors.As(err, &ve) {
		return nil
	}
	return ve.Fields
}
