package httpapi

import (
	"bytes"
	"math"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/adapters/indiapost/snapshot"
	"github.com/pinsight/pinsight/domain/postal"
)

// nearbyRecords is a nearby answer as clients read it: its offices' wire
// records (nearbyOffice), which encoding/json writes by reflection.
type nearbyRecords struct {
	Latitude     float64             `json:"latitude"`
	Longitude    float64             `json:"longitude"`
	RadiusKm     float64             `json:"radius_km"`
	WithinRadius bool                `json:"within_radius"`
	PostOffices  []wire.NearbyOffice `json:"post_offices"`
}

// sameAsEncodingJSON fails unless marshalJSON writes the answer d as
// huma's encoding/json format writes its records.
func sameAsEncodingJSON(t *testing.T, success bool, d nearbyData) {
	t.Helper()
	r := nearbyRecords{Latitude: d.Latitude, Longitude: d.Longitude, RadiusKm: d.RadiusKm, WithinRadius: d.WithinRadius}
	if d.PostOffices != nil {
		r.PostOffices = make([]wire.NearbyOffice, len(d.PostOffices))
		for i := range d.PostOffices {
			n := d.PostOffices[i].Nearby()
			r.PostOffices[i] = nearbyOffice(&n)
		}
	}
	var want, got, viaMarshaler bytes.Buffer
	if err := huma.DefaultJSONFormat.Marshal(&want, envelope[nearbyRecords]{Success: success, Data: r}); err != nil {
		t.Fatal(err)
	}
	if err := marshalJSON(&got, envelope[nearbyData]{Success: success, Data: d}); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Fatalf("marshalJSON wrote\n%s\nencoding/json\n%s", got.String(), want.String())
	}
	if err := huma.DefaultJSONFormat.Marshal(&viaMarshaler, envelope[nearbyData]{Success: success, Data: d}); err != nil {
		t.Fatal(err)
	}
	if viaMarshaler.String() != want.String() {
		t.Fatalf("encoding/json through MarshalJSON wrote\n%s\nfrom the records\n%s", viaMarshaler.String(), want.String())
	}
}

func TestNearbyJSONHostileValues(t *testing.T) {
	district := "A <b>&</b> \"quoted\" \\ back\tslash"
	strange := []string{
		"", "plain", "ünïcödé कार्यालय", "ctl \x00\x01\x08\x0c\x0a\x0d\x1f\x7f", "bad utf8 \xff\xfe end", "\xe2\x80\xa8 and \xe2\x80\xa9",
		"trailing \\", `"`, "half rune \xe0\xa4",
	}
	floats := []float64{0, math.Copysign(0, -1), 1e-7, -1e-7, 1e-6, 1e21, 1e20, 123.456, -89.999999, 1.0 / 3, 5e-324, math.MaxFloat64}
	types := []string{postal.TypeHead, postal.TypeSub, postal.TypeBranch, "XX"}
	for i, s := range strange {
		f := floats[i%len(floats)]
		o := postal.PostOffice{
			ID: int64(i) - 3, Pincode: postal.Pincode(s), Name: s, OfficeType: types[i%len(types)], Delivery: s,
			District: district, State: s, Location: &postal.Location{Latitude: f, Longitude: -f},
			Quality: postal.LocationQuality(s), Feedback: postal.Feedback{Reviews: 99, Likes: 99, RatingSum: 99}, // not the answer's
		}
		empty := postal.PostOffice{Location: &postal.Location{}}
		sameAsEncodingJSON(t, true, nearbyData{Latitude: f, Longitude: f, RadiusKm: f, WithinRadius: i%2 == 0,
			PostOffices: nearbyOffices{{Office: &o, DistanceKm: f, Feedback: postal.Feedback{Reviews: i, Likes: -i, RatingSum: 17 * i / 4}}, {Office: &empty}}})
	}
	for _, f := range floats {
		sameAsEncodingJSON(t, true, nearbyData{Latitude: f, Longitude: -f, RadiusKm: f})
	}
	sameAsEncodingJSON(t, false, nearbyData{PostOffices: nearbyOffices{}})
}

// TestNearbyJSONWholeDirectory checks the hand-written encoding against
// encoding/json for the record of every located office of the embedded
// snapshot.
func TestNearbyJSONWholeDirectory(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the whole directory")
	}
	res, err := indiapost.Load(snapshot.Files())
	if err != nil {
		t.Fatal(err)
	}
	d := nearbyData{Latitude: 28.6139, Longitude: 77.209, RadiusKm: 10, WithinRadius: true}
	for i := range res.Dataset.Offices {
		o := &res.Dataset.Offices[i]
		if o.Location == nil {
			continue
		}
		d.PostOffices = append(d.PostOffices, postal.NearbyRef{Office: o, DistanceKm: float64(i) / 7,
			Feedback: postal.Feedback{Reviews: i % 3, Likes: i % 5, RatingSum: 2 * (i % 3)}})
		if len(d.PostOffices) == 50 {
			sameAsEncodingJSON(t, true, d)
			d.PostOffices = d.PostOffices[:0]
		}
	}
	sameAsEncodingJSON(t, true, d)
}
