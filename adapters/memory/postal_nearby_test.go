package memory_test

import (
	"context"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/adapters/indiapost/snapshot"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
	"github.com/pinsight/pinsight/tests/race"
)

var (
	snapshotOnce  sync.Once
	snapshotStore *memory.PostalStore
	snapshotErr   error
)

// snapshotDirectory loads the real directory (the embedded snapshot) once per
// test binary.
func snapshotDirectory(tb testing.TB) *memory.PostalStore {
	tb.Helper()
	snapshotOnce.Do(func() {
		res, err := indiapost.Load(snapshot.Files())
		if err != nil {
			snapshotErr = err
			return
		}
		snapshotStore = memory.NewPostalStore(res.Dataset)
	})
	if snapshotErr != nil {
		tb.Fatal(snapshotErr)
	}
	return snapshotStore
}

// scan is the reference: every located office's point and id, compact so
// the scan is bound by the Haversine computations, not by memory.
type scan struct {
	points  []geo.Point
	offices []postal.PostOffice
}

func newScan(located []postal.PostOffice) scan {
	s := scan{points: make([]geo.Point, len(located)), offices: located}
	for i, o := range located {
		s.points[i] = geo.Point{Lat: o.Location.Latitude, Lon: o.Location.Longitude}
	}
	return s
}

// nearest computes the distance to every located office and keeps the
// limit best by distance, then id (LocatedOffices is by id).
func (s scan) nearest(p geo.Point, limit int, withinKm float64) []postal.NearbyRef {
	type hit struct {
		i int
		d float64
	}
	best := make([]hit, 0, limit+1)
	for i, q := range s.points {
		d := geo.DistanceKm(p, q)
		if withinKm > 0 && d > withinKm || len(best) == limit && (limit == 0 || d >= best[limit-1].d) {
			continue // equal distance: the earlier office (smaller id) stays
		}
		if len(best) == limit {
			best = best[:limit-1]
		}
		j := len(best)
		for j > 0 && best[j-1].d > d {
			j--
		}
		best = append(best, hit{})
		copy(best[j+1:], best[j:])
		best[j] = hit{i, d}
	}
	out := make([]postal.NearbyRef, len(best))
	for k, h := range best {
		out[k] = postal.NearbyRef{Office: &s.offices[h.i], DistanceKm: h.d}
	}
	return out
}

// prefix is the answer for (limit, withinKm) derived from the unrestricted
// nearest list all (sorted by distance, then id, at least limit long): the
// offices within the radius are a prefix of it.
func prefix(all []postal.NearbyRef, limit int, withinKm float64) []postal.NearbyRef {
	n := 0
	for n < len(all) && n < limit && (withinKm <= 0 || all[n].DistanceKm <= withinKm) {
		n++
	}
	return all[:n]
}

// TestNearestOfficesMatchesBruteForce is the acceptance test: for
// 10,000 random points over India the index's answers equal a Haversine scan
// over every located office of the real directory. Each point is scanned
// once (the 50 nearest) and checked three ways: a random limit without
// radius, the nearby default (5 within 10 km) and a random limit and radius.
// The scans take about a minute of CPU, so the test is skipped under the
// race detector (CI's go test -race) and cut to 500 points with -short.
func TestNearestOfficesMatchesBruteForce(t *testing.T) {
	if race.Enabled {
		t.Skip("skipped under the race detector (10,000 full scans): run go test -run MatchesBruteForce ./adapters/memory")
	}
	store := snapshotDirectory(t)
	ctx := context.Background()
	located, err := store.LocatedOffices(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(located); i++ {
		if located[i-1].ID >= located[i].ID {
			t.Fatalf("LocatedOffices not by id at %d", i)
		}
	}
	ref := newScan(located)
	n := 10000
	if testing.Short() {
		n = 500
	}
	type query struct {
		p      geo.Point
		limit  int
		within float64
	}
	rng := rand.New(rand.NewPCG(4, 2026))
	points := make([]geo.Point, n)
	variants := make([][3]query, n)
	for i := range points {
		// India's mainland box and islands: 6.5-37.5 N, 68-97.5 E.
		p := geo.Point{Lat: 6.5 + rng.Float64()*31, Lon: 68 + rng.Float64()*29.5}
		if i%10 == 0 {
			o := located[rng.IntN(len(located))] // exactly on an office: distance 0, shared points tie
			p = geo.Point{Lat: o.Location.Latitude, Lon: o.Location.Longitude}
		}
		points[i] = p
		variants[i] = [3]query{{p, 1 + rng.IntN(50), 0}, {p, 5, 10}, {p, 1 + rng.IntN(50), 0.1 + rng.Float64()*99.9}}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	failures, checked := 0, 0
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(points); i += workers {
				all := ref.nearest(points[i], 50, 0)
				for _, q := range variants[i] {
					got, err := store.NearestOffices(ctx, geo.NearQuery{Point: q.p, Limit: q.limit, RadiusKm: q.within})
					want := prefix(all, q.limit, q.within)
					mu.Lock()
					checked++
					if err != nil || !equalNearby(got, want) {
						if failures++; failures <= 3 {
							t.Errorf("query %+v: err %v\n got %v\nwant %v", q, err, ids(got), ids(want))
						}
					}
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if failures > 0 {
		t.Fatalf("%d of %d queries differ from the brute-force scan", failures, checked)
	}
	t.Logf("%d queries at %d points over %d located offices: equal to the scan", checked, n, len(located))
}

func equalNearby(a, b []postal.NearbyRef) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Office.ID != b[i].Office.ID || a[i].DistanceKm != b[i].DistanceKm {
			return false
		}
	}
	return true
}

func ids(ns []postal.NearbyRef) []int64 {
	out := make([]int64, len(ns))
	for i, n := range ns {
		out[i] = n.Office.ID
	}
	return out
}

// nearbyRows is a small hand-made directory: two offices at one point (a
// tie), one far away and one without a location.
var nearbyRows = []postal.RawOffice{
	{Row: 1, Circle: "Delhi", Region: "NA", Division: "New Delhi Central", Name: "Parliament Street H.O", Pincode: "110001", OfficeType: "HO", Delivery: "Delivery", District: "New Delhi", State: "Delhi", Latitude: "28.6210", Longitude: "77.2130"},
	{Row: 2, Circle: "Delhi", Region: "NA", Division: "New Delhi Central", Name: "Sansad Marg S.O", Pincode: "110001", OfficeType: "PO", Delivery: "Non Delivery", District: "New Delhi", State: "Delhi", Latitude: "28.6210", Longitude: "77.2130"},
	{Row: 3, Circle: "Delhi", Region: "NA", Division: "New Delhi Central", Name: "Connaught Place S.O", Pincode: "110001", OfficeType: "PO", Delivery: "Delivery", District: "New Delhi", State: "Delhi", Latitude: "28.6328", Longitude: "77.2197"},
	{Row: 4, Circle: "Maharashtra", Region: "Mumbai", Division: "Mumbai GPO", Name: "Mumbai G.P.O", Pincode: "400001", OfficeType: "HO", Delivery: "Delivery", District: "Mumbai", State: "Maharashtra", Latitude: "18.9398", Longitude: "72.8355"},
	{Row: 5, Circle: "Delhi", Region: "NA", Division: "New Delhi Central", Name: "Nowhere B.O", Pincode: "110001", OfficeType: "BO", Delivery: "Delivery", District: "New Delhi", State: "Delhi", Latitude: "NA", Longitude: "NA"},
}

func TestNearestOffices(t *testing.T) {
	store := memory.NewPostalStore(postal.Build(nearbyRows, nil, nil))
	ctx := context.Background()
	delhi := geo.Point{Lat: 28.6210, Lon: 77.2130}
	tests := []struct {
		name   string
		limit  int
		within float64
		want   []int64
	}{
		{"tie broken by id", 2, 0, []int64{1, 2}},
		{"all located, never the missing one", 10, 0, []int64{1, 2, 3, 4}},
		{"within radius", 10, 5, []int64{1, 2, 3}},
		{"tiny radius: only the point itself", 10, 0.0001, []int64{1, 2}},
		{"limit zero", 0, 0, []int64{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := store.NearestOffices(ctx, geo.NearQuery{Point: delhi, Limit: tt.limit, RadiusKm: tt.within})
			if err != nil {
				t.Fatal(err)
			}
			if g := ids(got); len(g) != len(tt.want) || (len(g) > 0 && !equalIDs(g, tt.want)) {
				t.Fatalf("ids = %v, want %v", g, tt.want)
			}
		})
	}
	if got, err := store.NearestOffices(ctx, geo.NearQuery{Point: geo.Point{Lat: 15, Lon: 65}, Limit: 5, RadiusKm: 100}); err != nil || len(got) != 0 {
		t.Errorf("nothing within 100 km of the Arabian Sea = %v, %v; want none", ids(got), err)
	}
	if _, err := memory.NewPostalStore(nil).NearestOffices(ctx, geo.NearQuery{Point: delhi, Limit: 1}); err != postal.ErrNoData {
		t.Errorf("empty store err = %v, want ErrNoData", err)
	}
}

func equalIDs(a, b []int64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// benchQueries are fixed random points over India.
func benchQueries() []geo.Point {
	rng := rand.New(rand.NewPCG(7, 7))
	q := make([]geo.Point, 1024)
	for i := range q {
		q[i] = geo.Point{Lat: 6.5 + rng.Float64()*31, Lon: 68 + rng.Float64()*29.5}
	}
	return q
}

// BenchmarkNearestOffices is a k-nearest query (k = 5, the nearby default,
// no radius) over the full directory through the index.
func BenchmarkNearestOffices(b *testing.B) {
	store := snapshotDirectory(b)
	ctx, queries := context.Background(), benchQueries()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := store.NearestOffices(ctx, geo.NearQuery{Point: queries[i%len(queries)], Limit: 5}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNearestOfficesRadius is the nearby default: 5 within 10 km.
func BenchmarkNearestOfficesRadius(b *testing.B) {
	store := snapshotDirectory(b)
	ctx, queries := context.Background(), benchQueries()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := store.NearestOffices(ctx, geo.NearQuery{Point: queries[i%len(queries)], Limit: 5, RadiusKm: 10}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNearestOfficesBruteForce is the same query as
// BenchmarkNearestOffices by a Haversine scan: the baseline.
func BenchmarkNearestOfficesBruteForce(b *testing.B) {
	store := snapshotDirectory(b)
	located, err := store.LocatedOffices(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	ref, queries := newScan(located), benchQueries()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		ref.nearest(queries[i%len(queries)], 5, 0)
	}
}
