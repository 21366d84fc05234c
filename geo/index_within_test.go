package geo_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pinsight/pinsight/geo"
)

// TestAppendWithinMatchesBruteForce compares the range query with a scan
// of every point, at radii from metres to thousands of km, on clustered
// points with duplicates.
func TestAppendWithinMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 27))
	points := indiaLike(rng, 5000)
	points = append(points, points[:50]...) // shared points
	ix := geo.NewIndex(points)
	for i := range 400 {
		q := points[rng.IntN(len(points))]
		if i%2 == 0 {
			q = geo.Point{Lat: 5 + rng.Float64()*33, Lon: 66 + rng.Float64()*32}
		}
		radius := []float64{0.001, 0.5, 5, 50, 500, 3000}[i%6]
		var want []int
		for j, p := range points {
			if geo.DistanceKm(q, p) <= radius {
				want = append(want, j)
			}
		}
		got := ix.AppendWithin(nil, q, radius)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("AppendWithin(%v, %v km) = %d items, want %d", q, radius, len(got), len(want))
		}
	}
	if got := ix.AppendWithin([]int{-1}, points[0], 0); !slices.Equal(got, []int{-1}) {
		t.Errorf("AppendWithin(radius 0) = %v, want dst unchanged", got)
	}
	if got := geo.NewIndex(nil).AppendWithin(nil, points[0], 100); len(got) != 0 {
		t.Errorf("AppendWithin on an empty index = %v", got)
	}
}
