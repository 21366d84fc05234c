package httpapi

import (
	"context"
	"math"
	"net/http"

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
	Latitude     float64             `json:"latitude"`
	Longitude    float64             `json:"longitude"`
	RadiusKm     float64             `json:"radius_km"`
	WithinRadius bool                `json:"within_radius" doc:"False when nothing lay within the radius: post_offices are then the closest at any distance."`
	PostOffices  []wire.NearbyOffice `json:"post_offices" doc:"Nearest first, ties by id; offices without a location are never listed."`
}

// roundKm rounds a distance in km to the metre, as every answer gives it.
func roundKm(km float64) float64 { return math.Round(km*1000) / 1000 }

// nearbyOffice is the record of n; its optional fields point into n (no
// copies: a nearby answer is on a hot path).
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
		res, err := p.Nearby(ctx, geo.NearQuery{Point: at, RadiusKm: in.Radius, Limit: in.Limit})
		if err != nil {
			return nil, toHTTP(err)
		}
		d := nearbyData{Latitude: at.Lat, Longitude: at.Lon, RadiusKm: in.Radius, WithinRadius: res.WithinRadius,
			PostOffices: make([]wire.NearbyOffice, len(res.Offices))}
		for i := range res.Offices {
			d.PostOffices[i] = nearbyOffice(&res.Offices[i])
		}
		return ok(d), nil
	})
}
