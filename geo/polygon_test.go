package geo_test

import (
	"os"
	"slices"
	"testing"

	"github.com/pinsight/pinsight/geo"
)

// square is the ring (0,0)-(10,10) in (lat, lon), without its closing point.
var square = geo.Ring{{Lat: 0, Lon: 0}, {Lat: 0, Lon: 10}, {Lat: 10, Lon: 10}, {Lat: 10, Lon: 0}}

func TestPolygonContains(t *testing.T) {
	pg := geo.Polygon{Outer: square, Holes: []geo.Ring{{{Lat: 4, Lon: 4}, {Lat: 6, Lon: 4}, {Lat: 6, Lon: 6}, {Lat: 4, Lon: 6}, {Lat: 4, Lon: 4}}}}
	diamond := geo.Polygon{Outer: geo.Ring{{Lat: 0, Lon: 5}, {Lat: 5, Lon: 10}, {Lat: 10, Lon: 5}, {Lat: 5, Lon: 0}}}
	tests := []struct {
		name string
		pg   geo.Polygon
		p    geo.Point
		want bool
	}{
		{"inside", pg, geo.Point{Lat: 2, Lon: 2}, true},
		{"outside", pg, geo.Point{Lat: 11, Lon: 2}, false},
		{"outside on the ray of a vertex", pg, geo.Point{Lat: 10, Lon: -1}, false},
		{"in the hole", pg, geo.Point{Lat: 5, Lon: 5}, false},
		{"on the outer edge", pg, geo.Point{Lat: 0, Lon: 3}, true},
		{"on an outer vertex", pg, geo.Point{Lat: 10, Lon: 10}, true},
		{"on the hole's edge", pg, geo.Point{Lat: 4, Lon: 5}, true},
		{"on the hole's vertex", pg, geo.Point{Lat: 6, Lon: 6}, true},
		{"just inside the hole", pg, geo.Point{Lat: 4.000001, Lon: 5}, false},
		{"just outside the outer edge", pg, geo.Point{Lat: -0.000001, Lon: 5}, false},
		{"on a sloped edge", diamond, geo.Point{Lat: 0.3, Lon: 5.3}, true},
		{"next to a sloped edge", diamond, geo.Point{Lat: 0.3, Lon: 5.31}, false},
		{"diamond centre", diamond, geo.Point{Lat: 5, Lon: 5}, true},
		{"diamond corner box", diamond, geo.Point{Lat: 1, Lon: 1}, false},
		{"empty polygon", geo.Polygon{}, geo.Point{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.pg.Contains(tt.p); got != tt.want {
				t.Fatalf("Contains(%v) = %v, want %v", tt.p, got, tt.want)
			}
		})
	}
}

func TestRingWindingAndClosure(t *testing.T) {
	closed := append(slices.Clone(square), square[0])
	reversed := slices.Clone(closed)
	slices.Reverse(reversed)
	for _, r := range []geo.Ring{square, closed, reversed} {
		if !r.Contains(geo.Point{Lat: 5, Lon: 5}) || r.Contains(geo.Point{Lat: 5, Lon: 15}) || !r.Contains(geo.Point{Lat: 10, Lon: 4}) {
			t.Errorf("ring %v: wrong containment", r)
		}
	}
	if b := square.Bounds(); b != (geo.Box{MinLat: 0, MinLon: 0, MaxLat: 10, MaxLon: 10}) {
		t.Errorf("Bounds = %+v", b)
	}
}

func TestMultiPolygon(t *testing.T) {
	far := geo.Polygon{Outer: geo.Ring{{Lat: 20, Lon: 20}, {Lat: 20, Lon: 21}, {Lat: 21, Lon: 21}}}
	m := geo.MultiPolygon{{Outer: square}, far}
	for _, tt := range []struct {
		p    geo.Point
		want bool
	}{{geo.Point{Lat: 1, Lon: 1}, true}, {geo.Point{Lat: 20.2, Lon: 20.5}, true}, {geo.Point{Lat: 15, Lon: 15}, false}} {
		if got := m.Contains(tt.p); got != tt.want {
			t.Errorf("Contains(%v) = %v, want %v", tt.p, got, tt.want)
		}
	}
	if b := m.Bounds(); b != (geo.Box{MinLat: 0, MinLon: 0, MaxLat: 21, MaxLon: 21}) {
		t.Errorf("Bounds = %+v", b)
	}
}

func loadPins(t *testing.T) []geo.Region {
	t.Helper()
	f, err := os.Open("testdata/pins.geojson")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	regions, err := geo.ReadGeoJSON(f, "pincode")
	if err != nil {
		t.Fatal(err)
	}
	return regions
}

func TestRegionsContaining(t *testing.T) {
	rs := geo.NewRegions(loadPins(t))
	if rs.Len() != 4 {
		t.Fatalf("Len = %d, want 4 (the null geometry is skipped)", rs.Len())
	}
	tests := []struct {
		name string
		p    geo.Point
		want []string
	}{
		{"inside", geo.Point{Lat: 28.2, Lon: 77.2}, []string{"110001"}},
		{"in the hole", geo.Point{Lat: 28.5, Lon: 77.42}, nil},
		{"on the hole's edge", geo.Point{Lat: 28.4, Lon: 77.5}, []string{"110001"}},
		{"island in the hole", geo.Point{Lat: 28.5, Lon: 77.5}, []string{"110003"}},
		{"on the outer edge", geo.Point{Lat: 28.0, Lon: 77.5}, []string{"110001"}},
		{"on the shared edge", geo.Point{Lat: 28.5, Lon: 78.0}, []string{"110001", "110002"}},
		{"numeric key", geo.Point{Lat: 28.5, Lon: 78.5}, []string{"110002"}},
		{"first island", geo.Point{Lat: 13.0, Lon: 77.6}, []string{"560001"}},
		{"on the first island's sloped edge", geo.Point{Lat: 13.0, Lon: 77.55}, []string{"560001"}},
		{"second island", geo.Point{Lat: 13.1, Lon: 80.1}, []string{"560001"}},
		{"nowhere", geo.Point{Lat: 20, Lon: 75}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rs.Containing(tt.p); !slices.Equal(got, tt.want) {
				t.Fatalf("Containing(%v) = %v, want %v", tt.p, got, tt.want)
			}
		})
	}
}

func TestRegionsMergeSameKey(t *testing.T) {
	a := geo.Region{Key: "k", Shape: geo.MultiPolygon{{Outer: square}}}
	b := geo.Region{Key: "k", Shape: geo.MultiPolygon{{Outer: geo.Ring{{Lat: 50, Lon: 50}, {Lat: 50, Lon: 51}, {Lat: 51, Lon: 51}}}}}
	rs := geo.NewRegions([]geo.Region{a, b})
	if rs.Len() != 1 || !slices.Equal(rs.Containing(geo.Point{Lat: 50.2, Lon: 50.5}), []string{"k"}) || !slices.Equal(rs.Containing(geo.Point{Lat: 1, Lon: 1}), []string{"k"}) {
		t.Fatalf("merged regions: Len %d", rs.Len())
	}
}
