package geocode_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
)

// TestNearestLimit: 0 is the default (3), any limit beyond the API's is
// accepted, a negative one is invalid, a point off the grid is a RangeError.
func TestNearestLimit(t *testing.T) {
	var rows []postal.RawOffice
	for i := range 12 {
		rows = append(rows, postal.RawOffice{Row: i + 1, Name: fmt.Sprintf("Office %02d B.O", i), Pincode: fmt.Sprintf("8000%02d", 10+i),
			OfficeType: "BO", Delivery: "Delivery", District: "PATNA", State: "BIHAR",
			Latitude: fmt.Sprint(25.6 + float64(i)/100), Longitude: "85.1"})
	}
	g := geocode.New(memory.NewPostalStore(postal.Build(rows, nil, nil)), nil)
	ctx, at := context.Background(), geo.Point{Lat: 25.6, Lon: 85.1}
	if res, err := g.Nearest(ctx, at, 0); err != nil || len(res.Offices) != geocode.DefaultNearestLimit || res.Digipin == "" {
		t.Errorf("Nearest(limit 0) = %+v, %v; want %d offices", res, err, geocode.DefaultNearestLimit)
	}
	if res, err := g.Nearest(ctx, at, 12); err != nil || len(res.Offices) != 12 || res.Offices[11].MatchedBy != geocode.MatchedDistance {
		t.Errorf("Nearest(limit 12) = %d offices, %v; want all 12 by distance", len(res.Offices), err)
	}
	var ve *postal.ValidationError
	if _, err := g.Nearest(ctx, at, -1); !errors.As(err, &ve) || len(ve.Fields["limit"]) == 0 {
		t.Errorf("Nearest(limit -1) err = %v, want limit invalid", err)
	}
	var re *digipin.RangeError
	if _, err := g.Nearest(ctx, geo.Point{Lat: 51.5, Lon: 0}, 3); !errors.As(err, &re) {
		t.Errorf("Nearest(London) err = %v, want a *digipin.RangeError", err)
	}
}
