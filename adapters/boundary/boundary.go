// Package boundary loads PIN code boundary polygons from a GeoJSON file and
// answers which PINs contain a point: the in-memory ports.BoundaryIndex.
package boundary

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
	"github.com/pinsight/pinsight/ports"
)

// DefaultProperty is the feature property holding the pincode when none is
// configured.
const DefaultProperty = "pincode"

// Index is the set of PIN boundaries, immutable once built.
type Index struct {
	regions *geo.Regions
}

// New indexes regions whose keys are pincodes; a key that is not a valid
// pincode is an error naming it.
func New(regions []geo.Region) (*Index, error) {
	for _, r := range regions {
		if !postal.ValidPincode(r.Key) {
			return nil, fmt.Errorf("boundary: %q is not a pincode (6 digits, the first not 0)", r.Key)
		}
	}
	return &Index{regions: geo.NewRegions(regions)}, nil
}

// Read reads a GeoJSON FeatureCollection of Polygon / MultiPolygon features
// whose property (DefaultProperty when empty) holds the pincode.
func Read(r io.Reader, property string) (*Index, error) {
	if property == "" {
		property = DefaultProperty
	}
	regions, err := geo.ReadGeoJSON(r, property)
	if err != nil {
		return nil, err
	}
	return New(regions)
}

// Load reads a GeoJSON file (.geojson / .json, or gzip-compressed with a .gz
// ending) as Read does.
func Load(path, property string) (*Index, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("boundary: %w", err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("boundary: %s: %w", path, err)
		}
		defer gz.Close()
		r = gz
	}
	ix, err := Read(r, property)
	if err != nil {
		return nil, fmt.Errorf("boundary: %s: %w", path, err)
	}
	return ix, nil
}

// Len is the number of PINs with a boundary.
func (ix *Index) Len() int { return ix.regions.Len() }

// PincodesAt implements ports.BoundaryIndex.
func (ix *Index) PincodesAt(_ context.Context, p geo.Point) ([]postal.Pincode, error) {
	keys := ix.regions.Containing(p)
	out := make([]postal.Pincode, len(keys))
	for i, k := range keys {
		out[i] = postal.Pincode(k)
	}
	return out, nil
}

// Interface guard.
var _ ports.BoundaryIndex = (*Index)(nil)
