package porttest

import (
	"context"
	"slices"
	"testing"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
	"github.com/pinsight/pinsight/ports"
)

// square is the closed ring of the box from (lat0, lon0) to (lat1, lon1).
func square(lat0, lon0, lat1, lon1 float64) geo.Ring {
	return geo.Ring{{Lat: lat0, Lon: lon0}, {Lat: lat0, Lon: lon1}, {Lat: lat1, Lon: lon1}, {Lat: lat1, Lon: lon0}, {Lat: lat0, Lon: lon0}}
}

// BoundaryRegions are the boundaries TestBoundaryIndex loads: 110001, a
// square with a square hole; 110002, its east neighbour sharing an edge;
// 110003, an island in the hole; 110004, two squares far apart.
func BoundaryRegions() []geo.Region {
	return []geo.Region{
		{Key: "110001", Shape: geo.MultiPolygon{{Outer: square(28, 77, 29, 78), Holes: []geo.Ring{square(28.4, 77.4, 28.6, 77.6)}}}},
		{Key: "110002", Shape: geo.MultiPolygon{{Outer: square(28, 78, 29, 79)}}},
		{Key: "110003", Shape: geo.MultiPolygon{{Outer: square(28.45, 77.45, 28.55, 77.55)}}},
		{Key: "110004", Shape: geo.MultiPolygon{{Outer: square(10, 70, 11, 71)}, {Outer: square(20, 90, 21, 91)}}},
	}
}

// TestBoundaryIndex checks a BoundaryIndex. newIndex must return an index
// of exactly the given regions (keys are pincodes).
func TestBoundaryIndex(t *testing.T, newIndex func(t *testing.T, regions []geo.Region) ports.BoundaryIndex) {
	ix := newIndex(t, BoundaryRegions())
	tests := []struct {
		name string
		p    geo.Point
		want []postal.Pincode
	}{
		{"inside one", geo.Point{Lat: 28.2, Lon: 77.2}, []postal.Pincode{"110001"}},
		{"in a hole", geo.Point{Lat: 28.42, Lon: 77.42}, nil},
		{"on a hole's edge", geo.Point{Lat: 28.4, Lon: 77.5}, []postal.Pincode{"110001"}},
		{"on an island in a hole", geo.Point{Lat: 28.5, Lon: 77.5}, []postal.Pincode{"110003"}},
		{"on a shared edge: both, sorted", geo.Point{Lat: 28.5, Lon: 78}, []postal.Pincode{"110001", "110002"}},
		{"on a shared corner", geo.Point{Lat: 29, Lon: 78}, []postal.Pincode{"110001", "110002"}},
		{"first part of a multipolygon", geo.Point{Lat: 10.5, Lon: 70.5}, []postal.Pincode{"110004"}},
		{"second part of a multipolygon", geo.Point{Lat: 20.5, Lon: 90.5}, []postal.Pincode{"110004"}},
		{"between the parts", geo.Point{Lat: 15, Lon: 80}, nil},
		{"outside every boundary", geo.Point{Lat: 8, Lon: 68}, nil},
	}
	for _, tt := range tests {
		got, err := ix.PincodesAt(context.Background(), tt.p)
		if err != nil || len(got) != len(tt.want) || !slices.Equal(got, tt.want) && len(tt.want) > 0 {
			t.Errorf("%s: PincodesAt(%v) = %v, %v; want %v", tt.name, tt.p, got, err, tt.want)
		}
	}
	if got, err := newIndex(t, nil).PincodesAt(context.Background(), geo.Point{Lat: 28.2, Lon: 77.2}); err != nil || len(got) != 0 {
		t.Errorf("an index of no boundaries: PincodesAt = %v, %v; want none", got, err)
	}
}
