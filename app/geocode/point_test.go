package geocode_test

import (
	"errors"
	"math"
	"testing"

	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
)

func TestParsePoint(t *testing.T) {
	tests := []struct {
		in   string
		want geo.Point
	}{
		{"28.6, 77.2", geo.Point{Lat: 28.6, Lon: 77.2}},
		{" 28.6,77.2 ", geo.Point{Lat: 28.6, Lon: 77.2}},
		{"28.6; 77.2", geo.Point{Lat: 28.6, Lon: 77.2}},
		{"28.6 77.2", geo.Point{Lat: 28.6, Lon: 77.2}},
		{"28.6N 77.2E", geo.Point{Lat: 28.6, Lon: 77.2}},
		{"28.6 N 77.2 E", geo.Point{Lat: 28.6, Lon: 77.2}},
		{"77.2E, 28.6N", geo.Point{Lat: 28.6, Lon: 77.2}},
		{"28°36'N 77°12'E", geo.Point{Lat: 28.6, Lon: 77.2}},
		{`28°36'0"N, 77°12'0"E`, geo.Point{Lat: 28.6, Lon: 77.2}},
		{"28.6°, 77.2°", geo.Point{Lat: 28.6, Lon: 77.2}},
		{"-33.9, 151.2", geo.Point{Lat: -33.9, Lon: 151.2}},
		{"33.9S 151.2E", geo.Point{Lat: -33.9, Lon: 151.2}},
	}
	for _, tt := range tests {
		got, err := geocode.ParsePoint(tt.in, geo.WorldBox)
		if err != nil || math.Abs(got.Lat-tt.want.Lat) > 1e-9 || math.Abs(got.Lon-tt.want.Lon) > 1e-9 {
			t.Errorf("ParsePoint(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestParsePointErrors(t *testing.T) {
	for _, in := range []string{"", "  ", "28.6", "28.6, ", ", 77.2", "28.6, 77.2, 10", "a, b", "NaN, 77", "0x1C, 77",
		"28N 77N", "77E 28E", "95, 77", "28, 181", "1 2 3", "28°61'N 77°E"} {
		_, err := geocode.ParsePoint(in, geo.WorldBox)
		var ve *postal.ValidationError
		if !errors.As(err, &ve) || len(ve.Fields["point"]) == 0 {
			t.Errorf("ParsePoint(%q) err = %v, want a ValidationError on point", in, err)
		}
	}
	if _, err := geocode.ParsePoint("28.6, 60", geocode.DigipinBox); err == nil {
		t.Error("a point west of the DIGIPIN grid was accepted")
	}
}
