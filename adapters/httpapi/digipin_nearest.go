package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/domain/postal"
)

type nearestInput struct {
	Latitude  float64 `query:"latitude" minimum:"2.5" maximum:"38.5" doc:"Decimal degrees, 2.5 to 38.5. Required unless point is given." example:"28.622788"`
	Longitude float64 `query:"longitude" minimum:"63.5" maximum:"99.5" doc:"Decimal degrees, 63.5 to 99.5. Required unless point is given." example:"77.213033"`
	Point     string  `query:"point" maxLength:"100" doc:"Loose alternative to latitude and longitude: \"28.6, 77.2\", \"28.6N 77.2E\" or DMS such as 28°36'30\"N 77°12'E."`
	Limit     int     `query:"limit" default:"3" minimum:"1" maximum:"10" doc:"Most offices returned, 1 to 10."`
}

// Resolve requires point or both latitude and longitude.
func (in *nearestInput) Resolve(ctx huma.Context) []error { return resolvePointQuery(ctx) }

// nearestData is a point's DIGIPIN with the post offices serving it.
type nearestData struct {
	Digipin     string          `json:"digipin" example:"39J-49L-L8T4"`
	Latitude    float64         `json:"latitude"`
	Longitude   float64         `json:"longitude"`
	PostOffices []nearestOffice `json:"post_offices" doc:"Offices matched by boundary first (nearest first), then the rest by distance; ties by id."`
}

// nearestOffice is a nearby office with how it was matched.
type nearestOffice struct {
	wire.NearbyOffice
	MatchedBy string `json:"matched_by" enum:"boundary,distance" doc:"boundary: its PIN's boundary polygon contains the point; distance: by distance alone."`
}

func registerDigipinNearest(api huma.API, p *directory.Directory, g *geocode.Geocoder) {
	desc := "The point's DIGIPIN and the nearest post offices by Haversine distance (no boundary data is loaded)."
	if g.HasBoundaries() {
		desc = "The point's DIGIPIN and its post offices: those of the PIN whose boundary polygon contains the point " +
			"first (a point on a shared border belongs to both), nearest first, then the others by distance."
	}
	huma.Register(group(api), huma.Operation{
		OperationID: "digipin-nearest", Method: http.MethodGet, Path: "/digipin/nearest", Tags: []string{"DIGIPIN"},
		Summary: "Post offices serving a point", Description: desc,
	}, func(ctx context.Context, in *nearestInput) (*reply[nearestData], error) {
		at, err := queryPoint(in.Point, in.Latitude, in.Longitude, geocode.DigipinBox)
		if err != nil {
			return nil, toHTTP(err)
		}
		res, err := g.Nearest(ctx, at, in.Limit)
		if err != nil {
			return nil, toHTTP(err)
		}
		nearby := make([]postal.Nearby, len(res.Offices))
		for i, o := range res.Offices {
			nearby[i] = o.Nearby
		}
		if err := p.WithNearbyFeedback(ctx, nearby); err != nil {
			return nil, toHTTP(err)
		}
		d := nearestData{Digipin: res.Digipin, Latitude: at.Lat, Longitude: at.Lon, PostOffices: make([]nearestOffice, len(res.Offices))}
		for i, o := range res.Offices {
			d.PostOffices[i] = nearestOffice{NearbyOffice: nearbyOffice(&nearby[i]), MatchedBy: o.MatchedBy}
		}
		return ok(d), nil
	})
}
