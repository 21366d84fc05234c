package httpapi

import (
	"context"
	"math"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

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

// NearbyData lists the offices near a point.
type NearbyData struct {
	Latitude     float64        `json:"latitude"`
	Longitude    float64        `json:"longitude"`
	RadiusKm     float64        `json:"radius_km"`
	WithinRadius bool           `json:"within_radius" doc:"False when nothing lay within the radius: post_offices are then the closest at any distance."`
	PostOffices  []NearbyOffice `json:"post_offices" doc:"Nearest first, ties by id; offices without a location are never listed."`
}

// NearbyOffice is the reduced office record of the nearby lists.
type NearbyOffice struct {
	ID              int64        `json:"id"`
	Pincode         string       `json:"pincode"`
	PostOffice      string       `json:"post_office"`
	BranchType      string       `json:"branch_type" enum:"Head Office,Sub Office,Branch Office"`
	DeliveryStatus  string       `json:"delivery_status" enum:"Delivery,Non Delivery"`
	District        *string      `json:"district" doc:"LGD name; null when unknown."`
	State           *string      `json:"state" doc:"LGD name; null when unknown."`
	Location        LocationData `json:"location"`
	LocationQuality string       `json:"location_quality" enum:"exact,corrected,approximate" doc:"approximate: a placeholder shared by 10+ offices or 50+ km from its PIN's other offices."`
	DistanceKm      float64      `json:"distance_km" doc:"Great-circle (Haversine, R = 6371.0088 km) distance, rounded to the metre."`
	FeedbackData
}

// nearbyOffice is the record of n; its optional fields point into n (no
// copies: a nearby answer is on a hot path).
func nearbyOffice(n *postal.Nearby) NearbyOffice {
	o := &n.Office
	return NearbyOffice{
		ID: o.ID, Pincode: string(o.Pincode), PostOffice: o.Name, BranchType: postal.BranchTypeName(o.OfficeType),
		DeliveryStatus: o.Delivery, District: optStringAt(&o.District), State: optStringAt(&o.State),
		Location:        LocationData{Latitude: o.Location.Latitude, Longitude: o.Location.Longitude},
		LocationQuality: string(o.Quality), DistanceKm: math.Round(n.DistanceKm*1000) / 1000,
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
	}, func(ctx context.Context, in *nearbyInput) (*Reply[NearbyData], error) {
		at, err := queryPoint(in.Point, in.Latitude, in.Longitude, geo.WorldBox)
		if err != nil {
			return nil, toHTTP(err)
		}
		res, err := p.Nearby(ctx, geo.NearQuery{Point: at, RadiusKm: in.Radius, Limit: in.Limit})
		if err != nil {
			return nil, toHTTP(err)
		}
		d := NearbyData{Latitude: at.Lat, Longitude: at.Lon, RadiusKm: in.Radius, WithinRadius: res.WithinRadius,
			PostOffices: make([]NearbyOffice, len(res.Offices))}
		for i := range res.Offices {
			d.PostOffices[i] = nearbyOffice(&res.Offices[i])
		}
		return ok(d), nil
	})
}
