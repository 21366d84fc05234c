package postal

import (
	"math"
	"strconv"
	"strings"
	"unicode"
)

// India's box: the DIGIPIN bounds, inclusive.
const (
	MinLatitude  = 2.5
	MaxLatitude  = 38.5
	MinLongitude = 63.5
	MaxLongitude = 99.5
)

// Location rules: what CleanLocation did to a published pair.
const (
	RuleExact    = "exact"    // valid as published
	RuleSwapped  = "swapped"  // latitude and longitude exchanged back
	RuleReparsed = "reparsed" // degree, hemisphere or DMS text parsed
	RuleNA       = "na"       // one or both published as NA
	RuleZero     = "zero"     // published as 0,0
	RuleEqual    = "equal"    // latitude equal to longitude: necessarily wrong
	RuleOutside  = "outside"  // outside India's box even after swapping
)

// CleanLocation turns the published latitude and longitude text into a
// point, or nil, with the quality and the rule that decided it.
func CleanLocation(latText, lonText string) (*Location, LocationQuality, string) {
	lat, latFixed, latOK := ParseCoordinate(latText)
	lon, lonFixed, lonOK := ParseCoordinate(lonText)
	switch {
	case !latOK || !lonOK:
		return nil, QualityMissing, RuleNA
	case lat == 0 && lon == 0:
		return nil, QualityMissing, RuleZero
	case lat == lon:
		return nil, QualityMissing, RuleEqual
	case inBox(lat, lon):
		if latFixed || lonFixed {
			return &Location{lat, lon}, QualityCorrected, RuleReparsed
		}
		return &Location{lat, lon}, QualityExact, RuleExact
	case inBox(lon, lat):
		return &Location{lon, lat}, QualityCorrected, RuleSwapped
	}
	return nil, QualityMissing, RuleOutside
}

func inBox(lat, lon float64) bool {
	return lat >= MinLatitude && lat <= MaxLatitude && lon >= MinLongitude && lon <= MaxLongitude
}

// ParseCoordinate reads one published coordinate: a decimal number, or text
// such as "28.430354° N", "18.856818°", "25.43 N", DMS "17°57'17.7" or a
// number broken by a space ("26.52 12743"). fixed reports that the text was
// not a plain number; ok is false for NA, empty or unreadable text.
func ParseCoordinate(s string) (v float64, fixed, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "NA") {
		return 0, false, false
	}
	if plainNumber(s) {
		v, err := strconv.ParseFloat(s, 64)
		return v, false, err == nil
	}
	sign := 1.0
	if last := unicode.ToUpper(rune(s[len(s)-1])); strings.ContainsRune("NSEW", last) {
		if last == 'S' || last == 'W' {
			sign = -1
		}
		s = strings.TrimSpace(s[:len(s)-1])
	}
	if strings.ContainsAny(s, "'\"′″") {
		return parseDMS(s, sign)
	}
	s = strings.NewReplacer("°", "", "º", "", " ", "").Replace(s)
	if !plainNumber(s) {
		return 0, false, false
	}
	v, err := strconv.ParseFloat(s, 64)
	return sign * v, true, err == nil
}

// parseDMS reads degrees, minutes and optional seconds separated by symbols.
func parseDMS(s string, sign float64) (float64, bool, bool) {
	parts := strings.FieldsFunc(s, func(r rune) bool { return !(unicode.IsDigit(r) || r == '.') })
	if len(parts) < 2 || len(parts) > 3 {
		return 0, false, false
	}
	v, weight := 0.0, 1.0
	for _, p := range parts {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || f < 0 || (weight < 1 && f >= 60) {
			return 0, false, false
		}
		v += f * weight
		weight /= 60
	}
	return sign * v, true, !math.IsNaN(v)
}

// plainNumber reports whether s is an optionally signed decimal number (no
// exponent, no hex, no NaN / Inf spellings).
func plainNumber(s string) bool {
	digits, dots := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			dots++
		case (c == '-' || c == '+') && i == 0:
		default:
			return false
		}
	}
	return digits > 0 && dots <= 1
}
