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

// sameAsEncodingJSON fails unless marshalJSON writes v as huma's
// encoding/json format does.
func sameAsEncodingJSON(t *testing.T, v any) {
	t.Helper()
	var want, got bytes.Buffer
	if err := huma.DefaultJSONFormat.Marshal(&want, v); err != nil {
		t.Fatal(err)
	}
	if err := marshalJSON(&got, v); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Fatalf("marshalJSON wrote\n%s\nencoding/json\n%s", got.String(), want.String())
	}
}

func TestNearbyJSONHostileValues(t *testing.T) {
	rating, district := 4.25, "A <b>&</b> \"quoted\" \\ back\tslash"
	strange := []string{
		"", "plain", "ünïcödé कार्यालय", "ctl \x00\x01\x08\x0c\x0a\x0d\x1f\x7f", "bad utf8 \xff\xfe end", "\xe2\x80\xa8 and \xe2\x80\xa9",
		"trailing \\", `"`, "half rune \xe0\xa4",
	}
	floats := []float64{0, math.Copysign(0, -1), 1e-7, -1e-7, 1e-6, 1e21, 1e20, 123.456, -89.999999, 1.0 / 3, 5e-324, math.MaxFloat64}
	for i, s := range strange {
		f := floats[i%len(floats)]
		o := wire.NearbyOffice{
			ID: int64(i) - 3, Pincode: s, PostOffice: s, BranchType: "Head Office", DeliveryStatus: s,
			District: &district, State: &s, Location: wire.LocationData{Latitude: f, Longitude: -f},
			LocationQuality: s, DistanceKm: f, FeedbackData: wire.FeedbackData{ReviewsCount: i, LikesCount: -i, Rating: &rating},
		}
		sameAsEncodingJSON(t, envelope[nearbyData]{Success: true, Data: nearbyData{Latitude: f, Longitude: f, RadiusKm: f,
			WithinRadius: i%2 == 0, PostOffices: []wire.NearbyOffice{o, {}}}})
	}
	for _, f := range floats {
		sameAsEncodingJSON(t, envelope[nearbyData]{Success: true, Data: nearbyData{Latitude: f, Longitude: -f, RadiusKm: f}})
	}
	sameAsEncodingJSON(t, envelope[nearbyData]{Data: nearbyData{PostOffices: []wire.NearbyOffice{}}})
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
	for i, o := range res.Dataset.Offices {
		if o.Location == nil {
			continue
		}
		o.Feedback = postal.Feedback{Reviews: i % 3, Likes: i % 5, RatingSum: 2 * (i % 3)}
		d.PostOffices = append(d.PostOffices, nearbyOffice(&postal.Nearby{Office: o, DistanceKm: float64(i) / 7}))
		if len(d.PostOffices) == 50 {
			sameAsEncodingJSON(t, envelope[nearbyData]{Success: true, Data: d})
			d.PostOffices = d.PostOffices[:0]
		}
	}
	sameAsEncodingJSON(t, envelope[nearbyData]{Success: true, Data: d})
}
