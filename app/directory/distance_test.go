package directory_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
)

// distanceDir has a PIN with a head office and a nearer-listed branch, a
// PIN whose only located office is a branch, and one with no location.
func distanceDir(t *testing.T) *directory.Directory {
	t.Helper()
	rows := []postal.RawOffice{
		{Row: 1, Name: "Alpha B.O", Pincode: "800001", OfficeType: "BO", Delivery: "Delivery", District: "PATNA", State: "BIHAR", Latitude: "25.70", Longitude: "85.20"},
		{Row: 2, Name: "Patna H.O", Pincode: "800001", OfficeType: "HO", Delivery: "Delivery", District: "PATNA", State: "BIHAR", Latitude: "25.60", Longitude: "85.10"},
		{Row: 3, Name: "Beta B.O", Pincode: "800002", OfficeType: "BO", Delivery: "Delivery", District: "PATNA", State: "BIHAR", Latitude: "NA", Longitude: "NA"},
		{Row: 4, Name: "Gamma B.O", Pincode: "800002", OfficeType: "BO", Delivery: "Delivery", District: "PATNA", State: "BIHAR", Latitude: "25.50", Longitude: "85.30"},
		{Row: 5, Name: "Lost B.O", Pincode: "800003", OfficeType: "BO", Delivery: "Delivery", District: "PATNA", State: "BIHAR", Latitude: "NA", Longitude: "NA"},
	}
	return directory.New(memory.NewPostalStore(postal.Build(rows, nil, nil)))
}

func TestDistanceResolvesEachForm(t *testing.T) {
	dir, ctx := distanceDir(t), context.Background()
	code, _ := digipin.Encode(28.622788, 77.213033)
	lat, lon, _ := digipin.Decode(code)
	for _, to := range []string{code, strings.ReplaceAll(code, "-", ""), strings.ToLower(code)} {
		res, err := dir.Distance(ctx, " 800001 ", to)
		if err != nil {
			t.Fatalf("Distance(800001, %q): %v", to, err)
		}
		if res.From.Kind != directory.EndpointPincode || res.From.Office == nil || res.From.Office.Name != "Patna H.O" ||
			res.From.Point != (geo.Point{Lat: 25.6, Lon: 85.1}) {
			t.Errorf("from = %+v, want the head office Patna H.O at 25.6,85.1", res.From)
		}
		if res.To.Kind != directory.EndpointDigipin || res.To.Digipin != code || res.To.Point != (geo.Point{Lat: lat, Lon: lon}) {
			t.Errorf("to(%q) = %+v, want the DIGIPIN %s at its centre %v,%v", to, res.To, code, lat, lon)
		}
		want := geo.DistanceKm(geo.Point{Lat: 25.6, Lon: 85.1}, geo.Point{Lat: lat, Lon: lon})
		if math.Abs(res.Km-want) > 1e-9 || res.Km < 800 || res.Km > 1000 {
			t.Errorf("km = %v, want %v (Patna to Delhi, about 850)", res.Km, want)
		}
		if res.BearingDeg < 270 || res.BearingDeg > 315 { // Delhi lies west-north-west of Patna
			t.Errorf("bearing = %v, want west-north-west", res.BearingDeg)
		}
	}
	res, err := dir.Distance(ctx, "800002", "28.6, 77.2")
	if err != nil || res.From.Office == nil || res.From.Office.Name != "Gamma B.O" || res.To.Kind != directory.EndpointPoint ||
		res.To.Point != (geo.Point{Lat: 28.6, Lon: 77.2}) {
		t.Errorf("Distance(800002, point) = %+v, %v; want the only located office Gamma B.O and the point", res, err)
	}
	res, err = dir.Distance(ctx, "25.6,85.1", "25.6,85.1")
	if err != nil || res.Km != 0 || res.BearingDeg != 0 {
		t.Errorf("same point = %+v, %v; want 0 km, bearing 0", res, err)
	}
}

func TestDistanceErrors(t *testing.T) {
	dir, ctx := distanceDir(t), context.Background()
	for _, c := range []struct{ from, to, field, says string }{
		{"hello", "800001", "from", "DIGIPIN"},
		{"800001", "12345", "to", "latitude,longitude"},
		{"800001", "39J-49L-L8T", "to", "PIN"},
		{"91,77", "800001", "from", "latitude must be"},
		{"800001", "", "to", "PIN"},
		{"800003", "800001", "from", "has a location"},
	} {
		_, err := dir.Distance(ctx, c.from, c.to)
		var ve *postal.ValidationError
		if !errors.As(err, &ve) || len(ve.Fields[c.field]) != 1 || !strings.Contains(ve.Fields[c.field][0], c.says) {
			t.Errorf("Distance(%q, %q) err = %v, want invalid %s saying %q", c.from, c.to, err, c.field, c.says)
		}
	}
	_, err := dir.Distance(ctx, "800001", "800009")
	var nf *postal.NotFoundError
	if !errors.As(err, &nf) {
		t.Errorf("Distance to a PIN with no office: err = %v, want not found", err)
	}
}
