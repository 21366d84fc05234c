package postal_test

import (
	"math"
	"testing"

	"github.com/pinsight/pinsight/domain/postal"
)

func TestParseCoordinate(t *testing.T) {
	tests := []struct {
		in        string
		want      float64
		fixed, ok bool
	}{
		{"28.6174167", 28.6174167, false, true},
		{"10.7500000", 10.75, false, true},
		{"21.539999999999999", 21.54, false, true},
		{"-12.5", -12.5, false, true},
		{" 77.2 ", 77.2, false, true},
		{"0", 0, false, true},
		{"NA", 0, false, false},
		{"na", 0, false, false},
		{"", 0, false, false},
		{"   ", 0, false, false},
		{"28.430354° N", 28.430354, true, true},
		{"77.358526° E", 77.358526, true, true},
		{"18.856818°", 18.856818, true, true},
		{"17°57'17.7", 17 + 57.0/60 + 17.7/3600, true, true},
		{"78°35'48.3", 78 + 35.0/60 + 48.3/3600, true, true},
		{"77°12′47″E", 77 + 12.0/60 + 47.0/3600, true, true},
		{"25.43 N", 25.43, true, true},
		{"85.29 E", 85.29, true, true},
		{"12.5 S", -12.5, true, true},
		{"26.52 12743", 26.5212743, true, true},
		{"28.4 32628", 28.432628, true, true},
		{"abc", 0, false, false},
		{"1e5", 0, false, false},
		{"NaN", 0, false, false},
		{"Inf", 0, false, false},
		{"0x1p4", 0, false, false},
		{"1.2.3", 0, false, false},
		{"17°75'", 0, false, false}, // 75 minutes
		{"N", 0, false, false},
	}
	for _, tt := range tests {
		v, fixed, ok := postal.ParseCoordinate(tt.in)
		if ok != tt.ok || fixed != tt.fixed || math.Abs(v-tt.want) > 1e-9 {
			t.Errorf("ParseCoordinate(%q) = %v, %v, %v; want %v, %v, %v", tt.in, v, fixed, ok, tt.want, tt.fixed, tt.ok)
		}
	}
}

func TestCleanLocation(t *testing.T) {
	type loc = postal.Location
	tests := []struct {
		lat, lon string
		want     *loc
		quality  postal.LocationQuality
		rule     string
	}{
		{"28.6174167", "77.2129167", &loc{Latitude: 28.6174167, Longitude: 77.2129167}, postal.QualityExact, postal.RuleExact},
		{"2.5", "63.5", &loc{Latitude: 2.5, Longitude: 63.5}, postal.QualityExact, postal.RuleExact}, // the box is inclusive
		{"38.5", "99.5", &loc{Latitude: 38.5, Longitude: 99.5}, postal.QualityExact, postal.RuleExact},
		{"NA", "NA", nil, postal.QualityMissing, postal.RuleNA},
		{"26.7", "NA", nil, postal.QualityMissing, postal.RuleNA},
		{"NA", "88.4", nil, postal.QualityMissing, postal.RuleNA},
		{"77.2167", "28.6315", &loc{Latitude: 28.6315, Longitude: 77.2167}, postal.QualityCorrected, postal.RuleSwapped},
		{"28.430354° N", "77.358526° E", &loc{Latitude: 28.430354, Longitude: 77.358526}, postal.QualityCorrected, postal.RuleReparsed},
		{"28.6", "77.358526° E", &loc{Latitude: 28.6, Longitude: 77.358526}, postal.QualityCorrected, postal.RuleReparsed},
		{"26.52 12743", "95.30 54302", &loc{Latitude: 26.5212743, Longitude: 95.3054302}, postal.QualityCorrected, postal.RuleReparsed},
		{"0", "0", nil, postal.QualityMissing, postal.RuleZero},
		{"0.0000000", "0.0000000", nil, postal.QualityMissing, postal.RuleZero},
		{"1.0000000", "1.0000000", nil, postal.QualityMissing, postal.RuleEqual},
		{"25.3000000", "25.3000000", nil, postal.QualityMissing, postal.RuleEqual},
		{"41.7994510", "87.5886960", nil, postal.QualityMissing, postal.RuleOutside},
		{"46.9332280", "8.7618880", nil, postal.QualityMissing, postal.RuleOutside},
		{"228.04489", "76.117029", nil, postal.QualityMissing, postal.RuleOutside},
		{"33.3000000", "25.3000000", nil, postal.QualityMissing, postal.RuleOutside},
		{"2.4999", "77.0", nil, postal.QualityMissing, postal.RuleOutside},
		{"-28.6", "77.2", nil, postal.QualityMissing, postal.RuleOutside},
	}
	for _, tt := range tests {
		got, quality, rule := postal.CleanLocation(tt.lat, tt.lon)
		if quality != tt.quality || rule != tt.rule {
			t.Errorf("CleanLocation(%q, %q): quality %q, rule %q; want %q, %q", tt.lat, tt.lon, quality, rule, tt.quality, tt.rule)
		}
		switch {
		case (got == nil) != (tt.want == nil):
			t.Errorf("CleanLocation(%q, %q) = %v, want %v", tt.lat, tt.lon, got, tt.want)
		case got != nil && (math.Abs(got.Latitude-tt.want.Latitude) > 1e-9 || math.Abs(got.Longitude-tt.want.Longitude) > 1e-9):
			t.Errorf("CleanLocation(%q, %q) = %+v, want %+v", tt.lat, tt.lon, *got, *tt.want)
		}
	}
}
