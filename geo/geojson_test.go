package geo_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/geo"
)

func TestReadGeoJSON(t *testing.T) {
	regions := loadPins(t)
	if len(regions) != 4 {
		t.Fatalf("got %d regions, want 4", len(regions))
	}
	first := regions[0]
	if first.Key != "110001" || len(first.Shape) != 1 || len(first.Shape[0].Holes) != 1 || len(first.Shape[0].Outer) != 4 {
		t.Errorf("first region = %+v", first)
	}
	if first.Shape[0].Outer[1] != (geo.Point{Lat: 28, Lon: 78}) {
		t.Errorf("positions are [lon, lat]: got %+v", first.Shape[0].Outer[1])
	}
	if regions[1].Key != "110002" || len(regions[2].Shape) != 2 {
		t.Errorf("numeric key / multipolygon: %q, %d polygons", regions[1].Key, len(regions[2].Shape))
	}
}

func TestReadGeoJSONProperty(t *testing.T) {
	doc := `{"type":"Feature","properties":{"PIN":"400001"},"geometry":{"type":"Polygon","coordinates":[[[72,18],[73,18],[73,19],[72,18]]]}}`
	regions, err := geo.ReadGeoJSON(strings.NewReader(doc), "PIN")
	if err != nil || len(regions) != 1 || regions[0].Key != "400001" {
		t.Fatalf("single feature = %+v, %v", regions, err)
	}
}

func TestReadGeoJSONErrors(t *testing.T) {
	poly := `"geometry":{"type":"Polygon","coordinates":[[[72,18],[73,18],[73,19],[72,18]]]}`
	tests := []struct {
		name, doc string
		feature   int
	}{
		{"not json", `{`, -1},
		{"wrong type", `{"type":"Point","coordinates":[1,2]}`, -1},
		{"missing key", `{"type":"FeatureCollection","features":[{"properties":{},` + poly + `}]}`, 0},
		{"empty key", `{"type":"FeatureCollection","features":[{"properties":{"pincode":" "},` + poly + `}]}`, 0},
		{"line string", `{"type":"FeatureCollection","features":[{"properties":{"pincode":"1"},"geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]}}]}`, 0},
		{"two positions", `{"type":"FeatureCollection","features":[{"properties":{"pincode":"1"},"geometry":{"type":"Polygon","coordinates":[[[1,2],[3,4],[1,2]]]}}]}`, 0},
		{"latitude out of range", `{"type":"FeatureCollection","features":[{"properties":{"pincode":"1"},"geometry":{"type":"Polygon","coordinates":[[[1,95],[3,4],[5,6]]]}}]}`, 0},
		{"bad coordinates", `{"type":"FeatureCollection","features":[{"properties":{"pincode":"1"},` + poly + `},{"properties":{"pincode":"2"},"geometry":{"type":"MultiPolygon","coordinates":[[1,2]]}}]}`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := geo.ReadGeoJSON(strings.NewReader(tt.doc), "pincode")
			var ge *geo.GeoJSONError
			if !errors.As(err, &ge) {
				t.Fatalf("err = %v, want a *GeoJSONError", err)
			}
			if ge.Feature != tt.feature {
				t.Errorf("Feature = %d, want %d (%v)", ge.Feature, tt.feature, err)
			}
		})
	}
}
