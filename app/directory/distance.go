package directory

import (
	"context"
	"fmt"
	"strings"

	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
)

// What a side of Distance was read as.
const (
	EndpointPincode = "pincode" // a PIN: the location of one of its offices
	EndpointDigipin = "digipin" // a full DIGIPIN: its cell's centre
	EndpointPoint   = "point"   // latitude and longitude
)

// endpointForms names the accepted forms of a Distance side.
const endpointForms = `must be a PIN (6 digits, e.g. 110001), a DIGIPIN (10 symbols, dashes optional, e.g. 39J-49L-L8T4) or "latitude,longitude" (e.g. 28.6,77.2)`

// Endpoint is what a side of Distance resolved to.
type Endpoint struct {
	Kind    string    // EndpointPincode, EndpointDigipin or EndpointPoint
	Point   geo.Point // the point measured from or to
	Digipin string    // EndpointDigipin: the code, XXX-XXX-XXXX
	// Office is, for EndpointPincode, the office whose location was used:
	// among the PIN's located offices, the head office, else a sub office,
	// else the first branch office (as Principal).
	Office *postal.PostOffice
}

// DistanceResult is the answer of Distance.
type DistanceResult struct {
	From, To   Endpoint
	Km         float64 // great-circle (Haversine) distance
	BearingDeg float64 // initial bearing from From to To, clockwise from north, [0, 360); 0 for the same point
}

// Distance measures from one place to another, each given as a PIN, a
// DIGIPIN or "latitude,longitude". A side in none of these forms is a
// *postal.ValidationError on its field ("from" or "to"), as is a PIN none
// of whose offices has a location; a PIN with no office is not found (or
// a *postal.TerminatedError), as in Lookup.
func (dir *Directory) Distance(ctx context.Context, from, to string) (DistanceResult, error) {
	a, err := dir.endpoint(ctx, "from", from)
	if err != nil {
		return DistanceResult{}, err
	}
	b, err := dir.endpoint(ctx, "to", to)
	if err != nil {
		return DistanceResult{}, err
	}
	return DistanceResult{From: a, To: b, Km: geo.DistanceKm(a.Point, b.Point), BearingDeg: geo.InitialBearing(a.Point, b.Point)}, nil
}

// endpoint resolves one side of Distance, reporting errors on field.
func (dir *Directory) endpoint(ctx context.Context, field, s string) (Endpoint, error) {
	s = strings.TrimSpace(s)
	if len(s) == 6 && strings.Trim(s, "0123456789") == "" {
		return dir.pincodeEndpoint(ctx, field, s)
	}
	if c, err := digipin.ParseCode(s); err == nil {
		lat, lon := digipin.DecodeCode(c)
		return Endpoint{Kind: EndpointDigipin, Point: geo.Point{Lat: lat, Lon: lon}, Digipin: c.String()}, nil
	}
	p, err := geocode.ParsePoint(s, geo.WorldBox)
	if err == nil {
		return Endpoint{Kind: EndpointPoint, Point: p}, nil
	}
	if strings.ContainsAny(s, ",;") { // meant as a point: say what is wrong with it
		if v, ok := err.(*postal.ValidationError); ok && len(v.Fields["point"]) > 0 {
			return Endpoint{}, postal.Invalid(field, endpointForms+"; as a point, "+v.Fields["point"][0])
		}
	}
	return Endpoint{}, postal.Invalid(field, endpointForms)
}

// pincodeEndpoint resolves a PIN to the location of its principal located
// office.
func (dir *Directory) pincodeEndpoint(ctx context.Context, field, s string) (Endpoint, error) {
	pin, offices, err := dir.Lookup(ctx, s)
	if err != nil {
		return Endpoint{}, err
	}
	var located []postal.PostOffice
	for _, o := range offices {
		if o.Location != nil {
			located = append(located, o)
		}
	}
	if len(located) == 0 {
		return Endpoint{}, postal.Invalid(field, fmt.Sprintf("no post office of pincode %s has a location", pin))
	}
	o := Principal(located)
	return Endpoint{Kind: EndpointPincode, Point: geo.Point{Lat: o.Location.Latitude, Lon: o.Location.Longitude}, Office: &o}, nil
}
