package httpapi

import (
	"io"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/domain/postal"
)

// BenchmarkNearbyJSON encodes a five-office nearby answer with the API's
// encoder (marshalJSON) and with huma's encoding/json format.
func BenchmarkNearbyJSON(b *testing.B) {
	d := nearbyData{Latitude: 28.6139, Longitude: 77.209, RadiusKm: 10, WithinRadius: true}
	for i := range 5 {
		d.PostOffices = append(d.PostOffices, postal.NearbyRef{Office: &postal.PostOffice{
			ID: int64(1000 + i), Pincode: "110001", Name: "Connaught Place S.O", OfficeType: postal.TypeSub,
			Delivery: "Non Delivery", District: "New Delhi", State: "Delhi",
			Location: &postal.Location{Latitude: 28.630382 + float64(i)/1000, Longitude: 77.217929 - float64(i)/1000},
			Quality:  "exact",
		}, DistanceKm: 1.234 * float64(i+1)})
	}
	v := envelope[nearbyData]{Success: true, Data: d}
	for _, c := range []struct {
		name    string
		marshal func(io.Writer, any) error
	}{{"marshalJSON", marshalJSON}, {"encoding-json", huma.DefaultJSONFormat.Marshal}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.marshal(io.Discard, v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
