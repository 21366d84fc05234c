package httpapi

import (
	"context"
	"math"
	"net/http"
	"reflect"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
)

type nearbyInput struct {
	Latitude  float64 `query:"latitude" minimum:"-90" maximum:"90" doc:"Decimal degrees, -90 to 90. Required unless point is given." example:"28.6139"`
	Longitude float64 `query:"longitude" minimum:"-180" maximum:"180" doc:"Decimal degrees, -180 to 180. Required unless point is given." example:"77.209"`
	Point     string  `query:"point" maxLength:"100" doc:"Loose alternative to latitude and longitude: \"28.6, 77.2\", \"28.6N 77.2E\" or DMS such as 28°36'30\"N 77°12'E."`
	Radius    float64 `query:"radius" default:"10" minimum:"0.1" maximum:"100" doc:"Search radius in km, 0.1 to 100."`
	Limit     int     `query:"limit" default:"5" minimum:"1" maximum:"50" doc:"Most offices returned, 1 to 50."`
}

// Resolve requires point or both latitude and longitude.
func (in *nearbyInput) Resolve(ctx huma.Context) []error { return resolvePointQuery(ctx) }

// nearbyData lists the offices near a point.
type nearbyData struct {
	Latitude     float64       `json:"latitude"`
	Longitude    float64       `json:"longitude"`
	RadiusKm     float64       `json:"radius_km"`
	WithinRadius bool          `json:"within_radius" doc:"False when nothing lay within the radius: post_offices are then the closest at any distance."`
	PostOffices  nearbyOffices `json:"post_offices" doc:"Nearest first, ties by id; offices without a location are never listed."`
}

// nearbyOffices are the offices of a nearby answer as the directory gives
// them (references to its records), encoded straight into their records
// (wire.NearbyOffice, whose schema they have: registerNearby aliases it)
// without a copy of each.
type nearbyOffices []postal.NearbyRef

// MarshalJSON writes the records of the offices, as appendJSON does.
func (n nearbyOffices) MarshalJSON() ([]byte, error) { return n.appendJSON(nil), nil }

// roundKm rounds a distance in km to the metre, as every answer gives it.
func roundKm(km float64) float64 { return math.Round(km*1000) / 1000 }

// nearbyOffice is the record of n; its optional fields point into n (no
// copies: a nearby answer is on a hot path). The nearby answer writes the
// same bytes without building it (appendNearbyOffice).
func nearbyOffice(n *postal.Nearby) wire.NearbyOffice {
	o := &n.Office
	return wire.NearbyOffice{
		ID: o.ID, Pincode: string(o.Pincode), PostOffice: o.Name, BranchType: postal.BranchTypeName(o.OfficeType),
		DeliveryStatus: o.Delivery, District: optStringAt(&o.District), State: optStringAt(&o.State),
		Location:        wire.LocationData{Latitude: o.Location.Latitude, Longitude: o.Location.Longitude},
		LocationQuality: string(o.Quality), DistanceKm: roundKm(n.DistanceKm),
		FeedbackData: feedbackData(o.Feedback),
	}
}

func registerNearby(api huma.API, p *directory.Directory) {
	api.OpenAPI().Components.Schemas.RegisterTypeAlias(reflect.TypeFor[nearbyOffices](), reflect.TypeFor[[]wire.NearbyOffice]())
	g := group(api)
	g.UseMiddleware(cacheable(p, nil)) // points are endless: no body cache
	huma.Register(g, huma.Operation{
		Metadata: countsOf(countsAny), OperationID: "pincode-nearby", Method: http.MethodGet, Path: "/pincodes/nearby", Tags: []string{"Pincodes"},
		Summary: "Post offices near a point",
		Description: "Offices within radius km, nearest first. When none lies within the radius, the closest limit " +
			"offices at any distance, with data.within_radius false. 400 when latitude or longitude is missing, 422 when out of range.",
	}, func(ctx context.Context, in *nearbyInput) (*reply[nearbyData], error) {
		at, err := queryPoint(in.Point, in.Latitude, in.Longitude, geo.WorldBox)
		if err != nil {
			return nil, toHTTP(err)
		}
		res, err := p.NearbyRefs(ctx, geo.NearQuery{Point: at, RadiusKm: in.Radius, Limit: in.Limit})
		if err != nil {
			return nil, toHTTP(err)
		}
		offices := nearbyOffices(res.Offices)
		if offices == nil {
			offices = nearbyOffices{} // a list, never null
		}
		return ok(nearbyData{Latitude: at.Lat, Longitude: at.Lon, RadiusKm: in.Radius, WithinRadius: res.WithinRadius,
			PostOffices: offices}), nil
	})
}
