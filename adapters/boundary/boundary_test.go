package boundary_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/boundary"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

// pinsFile is the hand-made boundary file of the geo package's tests: a
// square with a hole, a neighbour sharing its east edge, an island in the
// hole and a two-part multipolygon.
const pinsFile = "../../geo/testdata/pins.geojson"

func TestLoad(t *testing.T) {
	ix, err := boundary.Load(pinsFile, "")
	if err != nil {
		t.Fatal(err)
	}
	if ix.Len() != 4 {
		t.Fatalf("Len = %d, want 4", ix.Len())
	}
	tests := []struct {
		name string
		p    geo.Point
		want []postal.Pincode
	}{
		{"inside", geo.Point{Lat: 28.2, Lon: 77.2}, []postal.Pincode{"110001"}},
		{"in the hole", geo.Point{Lat: 28.5, Lon: 77.42}, []postal.Pincode{}},
		{"on the hole's edge", geo.Point{Lat: 28.6, Lon: 77.5}, []postal.Pincode{"110001"}},
		{"on the shared edge", geo.Point{Lat: 28.5, Lon: 78}, []postal.Pincode{"110001", "110002"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ix.PincodesAt(context.Background(), tt.p)
			if err != nil || !slices.Equal(got, tt.want) {
				t.Fatalf("PincodesAt(%v) = %v, %v; want %v", tt.p, got, err, tt.want)
			}
		})
	}
}

func TestLoadGzipAndProperty(t *testing.T) {
	raw, err := os.ReadFile(pinsFile)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(bytes.ReplaceAll(raw, []byte(`"pincode"`), []byte(`"PIN"`)))
	zw.Close()
	path := filepath.Join(t.TempDir(), "pins.geojson.gz")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	ix, err := boundary.Load(path, "PIN")
	if err != nil || ix.Len() != 4 {
		t.Fatalf("Load gz = %v", err)
	}
	if _, err := boundary.Load(path, "pincode"); err == nil || !strings.Contains(err.Error(), `property "pincode"`) {
		t.Errorf("wrong property: err = %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := boundary.Load("../../geo/testdata/absent.geojson", ""); err == nil {
		t.Error("absent file: no error")
	}
	doc := `{"type":"FeatureCollection","features":[{"properties":{"pincode":"012345"},"geometry":{"type":"Polygon","coordinates":[[[1,2],[3,4],[5,7]]]}}]}`
	if _, err := boundary.Read(strings.NewReader(doc), ""); err == nil || !strings.Contains(err.Error(), "012345") {
		t.Errorf("bad pincode key: err = %v", err)
	}
}

func TestBoundaryIndexContract(t *testing.T) {
	porttest.TestBoundaryIndex(t, func(t *testing.T, regions []geo.Region) ports.BoundaryIndex {
		ix, err := boundary.New(regions)
		if err != nil {
			t.Fatal(err)
		}
		return ix
	})
}
