package geo

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
)

// GeoJSONError reports a feature of a GeoJSON document that cannot be read.
type GeoJSONError struct {
	Feature int // 0-based position in the collection; -1 for the document
	Reason  string
}

func (e *GeoJSONError) Error() string {
	if e.Feature < 0 {
		return "geo: geojson: " + e.Reason
	}
	return fmt.Sprintf("geo: geojson: feature %d: %s", e.Feature, e.Reason)
}

type geoJSONDoc struct {
	Type       string           `json:"type"`
	Features   []geoJSONFeature `json:"features"`
	Geometry   *geoJSONGeometry `json:"geometry"`
	Properties map[string]any   `json:"properties"`
}

type geoJSONFeature struct {
	Geometry   *geoJSONGeometry `json:"geometry"`
	Properties map[string]any   `json:"properties"`
}

type geoJSONGeometry struct {
	Type        string          `json:"type"`
	Coordinates json.RawMessage `json:"coordinates"`
}

// ReadGeoJSON reads boundary regions from a GeoJSON FeatureCollection (or a
// single Feature) of Polygon and MultiPolygon features. keyProperty names the
// feature property holding each region's key (e.g. "pincode"); a string or a
// number, numbers written without exponent ("110001"). Features without a
// geometry are skipped; any other geometry type, a missing key or a malformed
// ring is a *GeoJSONError. Positions are [longitude, latitude(, altitude)].
func ReadGeoJSON(r io.Reader, keyProperty string) ([]Region, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	var doc geoJSONDoc
	if err := dec.Decode(&doc); err != nil {
		return nil, &GeoJSONError{Feature: -1, Reason: err.Error()}
	}
	features := doc.Features
	switch doc.Type {
	case "FeatureCollection":
	case "Feature":
		features = []geoJSONFeature{{Geometry: doc.Geometry, Properties: doc.Properties}}
	default:
		return nil, &GeoJSONError{Feature: -1, Reason: fmt.Sprintf("type %q, want FeatureCollection or Feature", doc.Type)}
	}
	var out []Region
	for i, f := range features {
		if f.Geometry == nil {
			continue
		}
		key, err := propertyKey(f.Properties, keyProperty)
		if err != nil {
			return nil, &GeoJSONError{Feature: i, Reason: err.Error()}
		}
		shape, err := f.Geometry.shape()
		if err != nil {
			return nil, &GeoJSONError{Feature: i, Reason: err.Error()}
		}
		out = append(out, Region{Key: key, Shape: shape})
	}
	return out, nil
}

func propertyKey(props map[string]any, name string) (string, error) {
	switch v := props[name].(type) {
	case string:
		if s := strings.TrimSpace(v); s != "" {
			return s, nil
		}
	case json.Number:
		return v.String(), nil
	}
	return "", fmt.Errorf("property %q missing, empty or not a string or number", name)
}

func (g *geoJSONGeometry) shape() (MultiPolygon, error) {
	switch g.Type {
	case "Polygon":
		var c [][][]float64
		if err := json.Unmarshal(g.Coordinates, &c); err != nil {
			return nil, fmt.Errorf("polygon coordinates: %v", err)
		}
		pg, err := polygonOf(c)
		if err != nil {
			return nil, err
		}
		return MultiPolygon{pg}, nil
	case "MultiPolygon":
		var c [][][][]float64
		if err := json.Unmarshal(g.Coordinates, &c); err != nil {
			return nil, fmt.Errorf("multipolygon coordinates: %v", err)
		}
		m := make(MultiPolygon, 0, len(c))
		for _, pc := range c {
			pg, err := polygonOf(pc)
			if err != nil {
				return nil, err
			}
			m = append(m, pg)
		}
		return m, nil
	}
	return nil, fmt.Errorf("geometry type %q, want Polygon or MultiPolygon", g.Type)
}

func polygonOf(rings [][][]float64) (Polygon, error) {
	if len(rings) == 0 {
		return Polygon{}, fmt.Errorf("polygon without rings")
	}
	var pg Polygon
	for i, rc := range rings {
		r, err := ringOf(rc)
		if err != nil {
			return Polygon{}, fmt.Errorf("ring %d: %v", i, err)
		}
		if i == 0 {
			pg.Outer = r
		} else {
			pg.Holes = append(pg.Holes, r)
		}
	}
	return pg, nil
}

func ringOf(positions [][]float64) (Ring, error) {
	r := make(Ring, 0, len(positions))
	for _, pos := range positions {
		if len(pos) < 2 || math.IsNaN(pos[0]) || math.IsNaN(pos[1]) || math.Abs(pos[0]) > 180 || math.Abs(pos[1]) > 90 {
			return nil, fmt.Errorf("position %v is not [longitude, latitude] in range", pos)
		}
		r = append(r, Point{Lat: pos[1], Lon: pos[0]})
	}
	if len(r) > 1 && r[0] == r[len(r)-1] {
		r = r[:len(r)-1] // the closing point is implied
	}
	if len(r) < 3 {
		return nil, fmt.Errorf("%d distinct positions, want at least 3", len(r))
	}
	return r, nil
}
