package geo_test

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pinsight/pinsight/geo"
)

func ExampleDistanceKm() {
	delhi := geo.Point{Lat: 28.6139, Lon: 77.2090}
	mumbai := geo.Point{Lat: 19.0760, Lon: 72.8777}
	fmt.Printf("%.0f km\n", geo.DistanceKm(delhi, mumbai))
	// Output: 1148 km
}

func ExampleIndex_NearestWithin() {
	offices := []geo.Point{
		{Lat: 28.6328, Lon: 77.2197}, // Connaught Place
		{Lat: 28.6562, Lon: 77.2410}, // Chandni Chowk
		{Lat: 19.0760, Lon: 72.8777}, // Mumbai
	}
	ix := geo.NewIndex(offices)
	for _, n := range ix.NearestWithin(geo.NearQuery{Point: geo.Point{Lat: 28.6139, Lon: 77.2090}, RadiusKm: 10, Limit: 5}) {
		fmt.Printf("office %d at %.2f km\n", n.Item, n.DistanceKm)
	}
	// Output:
	// office 0 at 2.35 km
	// office 1 at 5.65 km
}

func ExamplePolygon_Contains() {
	// A square with a square hole; edges (of the hole too) count as inside.
	pg := geo.Polygon{
		Outer: geo.Ring{{Lat: 0, Lon: 0}, {Lat: 0, Lon: 10}, {Lat: 10, Lon: 10}, {Lat: 10, Lon: 0}},
		Holes: []geo.Ring{{{Lat: 4, Lon: 4}, {Lat: 4, Lon: 6}, {Lat: 6, Lon: 6}, {Lat: 6, Lon: 4}}},
	}
	fmt.Println(pg.Contains(geo.Point{Lat: 1, Lon: 1}), pg.Contains(geo.Point{Lat: 5, Lon: 5}), pg.Contains(geo.Point{Lat: 4, Lon: 5}))
	// Output: true false true
}

func ExampleReadGeoJSON() {
	doc := `{"type": "FeatureCollection", "features": [{"type": "Feature",
	  "properties": {"pin": 110001},
	  "geometry": {"type": "Polygon", "coordinates": [[[77, 28], [78, 28], [78, 29], [77, 29], [77, 28]]]}}]}`
	regions, err := geo.ReadGeoJSON(strings.NewReader(doc), "pin")
	if err != nil {
		fmt.Println(err)
		return
	}
	rs := geo.NewRegions(regions)
	fmt.Println(rs.Containing(geo.Point{Lat: 28.5, Lon: 77.5}), rs.Containing(geo.Point{Lat: 30, Lon: 77.5}))
	// Output: [110001] []
}

func ExampleIndex_AppendWithin() {
	offices := []geo.Point{
		{Lat: 28.6328, Lon: 77.2197}, // Connaught Place
		{Lat: 28.6562, Lon: 77.2410}, // Chandni Chowk
		{Lat: 19.0760, Lon: 72.8777}, // Mumbai
	}
	ix := geo.NewIndex(offices)
	found := ix.AppendWithin(nil, geo.Point{Lat: 28.6139, Lon: 77.2090}, 10)
	slices.Sort(found) // in no particular order
	fmt.Println(found)
	// Output: [0 1]
}
