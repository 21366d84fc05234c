package geo_test

import (
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/pinsight/pinsight/geo"
)

// bruteNearest is the reference: every point's distance, sorted by
// distance then item, cut to k, within radius when radius > 0.
func bruteNearest(points []geo.Point, q geo.Point, k int, radius float64) []geo.Neighbour {
	var all []geo.Neighbour
	for i, p := range points {
		if d := geo.DistanceKm(q, p); radius <= 0 || d <= radius {
			all = append(all, geo.Neighbour{Item: i, DistanceKm: d})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		return a.DistanceKm < b.DistanceKm || a.DistanceKm == b.DistanceKm && a.Item < b.Item
	})
	return all[:min(k, len(all))]
}

// indiaLike returns n points clustered like offices: dense towns and a
// sparse background over India's box, with repeated (placeholder) points.
func indiaLike(rng *rand.Rand, n int) []geo.Point {
	towns := make([]geo.Point, 200)
	for i := range towns {
		towns[i] = geo.Point{Lat: 8 + rng.Float64()*27, Lon: 68 + rng.Float64()*29}
	}
	pts := make([]geo.Point, n)
	for i := range pts {
		switch r := rng.IntN(10); {
		case r < 6:
			t := towns[rng.IntN(len(towns))]
			pts[i] = geo.Point{Lat: t.Lat + rng.NormFloat64()*0.2, Lon: t.Lon + rng.NormFloat64()*0.2}
		case r < 7 && i > 0:
			pts[i] = pts[rng.IntN(i)] // a shared point: exact distance ties
		default:
			pts[i] = geo.Point{Lat: 8 + rng.Float64()*27, Lon: 68 + rng.Float64()*29}
		}
	}
	return pts
}

func equalNeighbours(a, b []geo.Neighbour) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestIndexMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	points := indiaLike(rng, 5000)
	ix := geo.NewIndex(points)
	if ix.Len() != len(points) {
		t.Fatalf("Len = %d", ix.Len())
	}
	for i := range 1000 {
		q := geo.Point{Lat: 2.5 + rng.Float64()*36, Lon: 63.5 + rng.Float64()*36}
		if i%5 == 0 {
			q = points[rng.IntN(len(points))] // on a point: distance 0 and ties
		}
		k := 1 + rng.IntN(50)
		radius := []float64{0, 0.1, 1, 10, 100, 1000}[rng.IntN(6)]
		got, want := ix.NearestWithin(geo.NearQuery{Point: q, RadiusKm: radius, Limit: k}), bruteNearest(points, q, k, radius)
		if !equalNeighbours(got, want) {
			t.Fatalf("query %v k=%d radius=%v:\n got %v\nwant %v", q, k, radius, got, want)
		}
	}
}

func TestIndexEdgeCases(t *testing.T) {
	if got := geo.NewIndex(nil).Nearest(geo.Point{}, 3); got != nil {
		t.Errorf("empty index = %v, want nil", got)
	}
	pts := []geo.Point{{Lat: 10, Lon: 10}, {Lat: 10, Lon: 10}, {Lat: -10, Lon: -170}, {Lat: 10, Lon: 179.9}}
	ix := geo.NewIndex(pts)
	if got := ix.Nearest(geo.Point{Lat: 10, Lon: 10}, 0); got != nil {
		t.Errorf("k=0 = %v, want nil", got)
	}
	if got := ix.Nearest(geo.Point{Lat: 10, Lon: 10}, 10); len(got) != 4 || got[0].Item != 0 || got[1].Item != 1 {
		t.Errorf("k > Len = %v, want all four, the tie by item", got)
	}
	// Across the antimeridian: 179.9 E is 0.2 degrees from 179.9 W.
	if got := ix.Nearest(geo.Point{Lat: 10, Lon: -179.9}, 1); got[0].Item != 3 || got[0].DistanceKm > 25 {
		t.Errorf("antimeridian = %v", got)
	}
	if got := ix.NearestWithin(geo.NearQuery{Point: geo.Point{Lat: 0, Lon: 0}, RadiusKm: 100, Limit: 5}); len(got) != 0 {
		t.Errorf("nothing within radius = %v", got)
	}
}
