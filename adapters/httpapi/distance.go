package httpapi

import (
	"context"
	"math"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app/directory"
)

type distanceInput struct {
	From string `query:"from" required:"true" maxLength:"100" doc:"Where to measure from: a PIN (6 digits: its head office, else a sub office, else the first branch office, among those with a location), a DIGIPIN (10 symbols, dashes optional: its cell's centre) or \"latitude,longitude\" in decimal degrees (also \"28.6N 77.2E\" or DMS)." example:"110001"`
	To   string `query:"to" required:"true" maxLength:"100" doc:"Where to measure to: a PIN (6 digits: its head office, else a sub office, else the first branch office, among those with a location), a DIGIPIN (10 symbols, dashes optional: its cell's centre) or \"latitude,longitude\" in decimal degrees (also \"28.6N 77.2E\" or DMS)." example:"39J-49L-L8T4"`
}

// distanceData is the distance and initial bearing between two places.
type distanceData struct {
	From           endpointData `json:"from"`
	To             endpointData `json:"to"`
	DistanceKm     float64      `json:"distance_km" doc:"Great-circle (Haversine) distance on the mean Earth sphere, in km, to the metre." example:"1.234"`
	BearingDegrees float64      `json:"bearing_degrees" minimum:"0" maximum:"360" exclusiveMaximum:"360" doc:"Initial bearing from from to to, in degrees clockwise from true north, [0, 360), to 0.01°; 0 when both are the same point." example:"135.5"`
}

// endpointData is what one side resolved to.
type endpointData struct {
	Input      string      `json:"input" doc:"The parameter as given."`
	Kind       string      `json:"kind" enum:"pincode,digipin,point" doc:"What the parameter was read as."`
	Latitude   float64     `json:"latitude" doc:"The point measured from or to."`
	Longitude  float64     `json:"longitude"`
	Digipin    *string     `json:"digipin" doc:"kind digipin: the code, XXX-XXX-XXXX; null otherwise."`
	PostOffice *officeData `json:"post_office" doc:"kind pincode: the office whose location was used; null otherwise."`
}

func endpointDataOf(input string, e directory.Endpoint) endpointData {
	d := endpointData{Input: input, Kind: e.Kind, Latitude: e.Point.Lat, Longitude: e.Point.Lon}
	if e.Kind == directory.EndpointDigipin {
		d.Digipin = &e.Digipin
	}
	if e.Office != nil {
		o := officeDataOf(*e.Office)
		d.PostOffice = &o
	}
	return d
}

func registerDistance(api huma.API, p *directory.Directory) {
	g := group(api)
	g.UseMiddleware(cacheable(p, nil)) // pairs of places are endless: no body cache
	huma.Register(g, huma.Operation{
		Metadata: countsOf(countsAny), OperationID: "distance", Method: http.MethodGet, Path: "/distance", Tags: []string{"Pincodes"},
		Summary: "Distance and bearing between two places",
		Description: "The great-circle distance and the initial bearing from one place to another, each a PIN, a DIGIPIN or a point, " +
			"with what each side resolved to. 400 when from or to is missing; 422 on the parameter when it is none of the three forms " +
			"(or a point out of range), or when it is a PIN none of whose offices has a location; 404 when it is a PIN with no office " +
			"(terminated: true when an earlier release had it).",
	}, func(ctx context.Context, in *distanceInput) (*reply[distanceData], error) {
		res, err := p.Distance(ctx, in.From, in.To)
		if err != nil {
			return nil, toHTTP(err)
		}
		bearing := math.Round(res.BearingDeg*100) / 100
		if bearing >= 360 {
			bearing = 0
		}
		return ok(distanceData{
			From: endpointDataOf(in.From, res.From), To: endpointDataOf(in.To, res.To),
			DistanceKm: roundKm(res.Km), BearingDegrees: bearing,
		}), nil
	})
}
