package geo_test

import (
	"math/rand/v2"
	"testing"

	"github.com/pinsight/pinsight/geo"
)

// benchPoints is the size of the full directory's located offices.
const benchPoints = 150000

func benchSetup(b *testing.B) ([]geo.Point, []geo.Point) {
	rng := rand.New(rand.NewPCG(3, 4))
	points := indiaLike(rng, benchPoints)
	queries := make([]geo.Point, 1024)
	for i := range queries {
		queries[i] = geo.Point{Lat: 8 + rng.Float64()*27, Lon: 68 + rng.Float64()*29}
	}
	return points, queries
}

// BenchmarkIndex is a 5-nearest query within 10 km (the nearby defaults)
// over 150,000 clustered points.
func BenchmarkIndex(b *testing.B) {
	points, queries := benchSetup(b)
	ix := geo.NewIndex(points)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		ix.NearestWithin(geo.NearQuery{Point: queries[i%len(queries)], RadiusKm: 10, Limit: 5})
	}
}

// BenchmarkIndexNoRadius is a 5-nearest query without radius.
func BenchmarkIndexNoRadius(b *testing.B) {
	points, queries := benchSetup(b)
	ix := geo.NewIndex(points)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		ix.Nearest(queries[i%len(queries)], 5)
	}
}

// BenchmarkBruteForce is the same query as BenchmarkIndex by a Haversine
// scan, the baseline.
func BenchmarkBruteForce(b *testing.B) {
	points, queries := benchSetup(b)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		bruteNearest(points, queries[i%len(queries)], 5, 10)
	}
}

// BenchmarkNewIndex builds the index over 150,000 points.
func BenchmarkNewIndex(b *testing.B) {
	points, _ := benchSetup(b)
	for b.Loop() {
		geo.NewIndex(points)
	}
}
