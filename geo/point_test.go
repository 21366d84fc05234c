package geo_test

import (
	"math"
	"testing"

	"github.com/pinsight/pinsight/geo"
)

func TestInitialBearing(t *testing.T) {
	for _, c := range []struct {
		name string
		p, q geo.Point
		want float64 // degrees
		tol  float64
	}{
		{"due north", geo.Point{Lat: 0, Lon: 0}, geo.Point{Lat: 10, Lon: 0}, 0, 1e-9},
		{"due east on the equator", geo.Point{Lat: 0, Lon: 0}, geo.Point{Lat: 0, Lon: 90}, 90, 1e-9},
		{"due south", geo.Point{Lat: 10, Lon: 77}, geo.Point{Lat: -5, Lon: 77}, 180, 1e-9},
		{"due west on the equator", geo.Point{Lat: 0, Lon: 10}, geo.Point{Lat: 0, Lon: -20}, 270, 1e-9},
		{"across the antimeridian, east", geo.Point{Lat: 0, Lon: 179}, geo.Point{Lat: 0, Lon: -179}, 90, 1e-9},
		// Wikipedia, Great-circle navigation: Valparaíso to Shanghai, α1 = −94.41°.
		{"Valparaíso to Shanghai", geo.Point{Lat: -33, Lon: -71.6}, geo.Point{Lat: 31.4, Lon: 121.8}, 360 - 94.41, 0.01},
		// Movable Type Scripts: Baghdad (35°N 45°E) to Osaka (35°N 135°E), 60°.
		{"Baghdad to Osaka", geo.Point{Lat: 35, Lon: 45}, geo.Point{Lat: 35, Lon: 135}, 60.16, 0.01},
		{"same point", geo.Point{Lat: 28.6, Lon: 77.2}, geo.Point{Lat: 28.6, Lon: 77.2}, 0, 0},
	} {
		got := geo.InitialBearing(c.p, c.q)
		if math.Abs(got-c.want) > c.tol || got < 0 || got >= 360 {
			t.Errorf("%s: InitialBearing = %.6f, want %.4f ± %g", c.name, got, c.want, c.tol)
		}
	}
}
