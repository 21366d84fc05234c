package httpapi_test

import (
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
)

// distanceEnd is one side of a distance answer.
type distanceEnd struct {
	Input      string  `json:"input"`
	Kind       string  `json:"kind"`
	Latitude   float64 `json:"latitude"`
	Longitude  float64 `json:"longitude"`
	Digipin    *string `json:"digipin"`
	PostOffice *struct {
		ID         int64  `json:"id"`
		PostOffice string `json:"post_office"`
		BranchType string `json:"branch_type"`
	} `json:"post_office"`
}

// TestDistanceHTTP checks the operation on the fixture directory: each
// form of a side, the rounding, and the errors by parameter.
func TestDistanceHTTP(t *testing.T) {
	h := fixtureHandler(t)
	var d struct {
		From           distanceEnd `json:"from"`
		To             distanceEnd `json:"to"`
		DistanceKm     float64     `json:"distance_km"`
		BearingDegrees float64     `json:"bearing_degrees"`
	}
	getOK(t, h, "/api/v1/distance?from=110001&to=39j49ll8t4", &d)
	if d.From.Kind != "pincode" || d.From.Input != "110001" || d.From.PostOffice == nil || d.From.PostOffice.PostOffice != "New Delhi G.P.O" ||
		d.From.PostOffice.BranchType != "Head Office" || d.From.Latitude != 28.6328 || d.From.Longitude != 77.2197 || d.From.Digipin != nil {
		t.Errorf("from = %+v, want the head office New Delhi G.P.O at 28.6328,77.2197", d.From)
	}
	if d.To.Kind != "digipin" || d.To.Digipin == nil || *d.To.Digipin != "39J-49L-L8T4" || d.To.PostOffice != nil ||
		math.Abs(d.To.Latitude-28.622788) > 5e-5 || math.Abs(d.To.Longitude-77.213033) > 5e-5 {
		t.Errorf("to = %+v, want the DIGIPIN 39J-49L-L8T4 at its centre", d.To)
	}
	want := geo.DistanceKm(geo.Point{Lat: 28.6328, Lon: 77.2197}, geo.Point{Lat: d.To.Latitude, Lon: d.To.Longitude})
	if math.Abs(d.DistanceKm-want) > 0.0005 || d.DistanceKm != math.Round(d.DistanceKm*1000)/1000 {
		t.Errorf("distance_km = %v, want %v to the metre", d.DistanceKm, want)
	}
	if d.BearingDegrees < 180 || d.BearingDegrees > 270 { // the DIGIPIN lies south-west of the GPO
		t.Errorf("bearing_degrees = %v, want south-west", d.BearingDegrees)
	}

	getOK(t, h, "/api/v1/distance?from=110003&to=28.5,77.2", &d) // Lodi Road H.O, listed after a branch
	if d.From.PostOffice == nil || d.From.PostOffice.PostOffice != "Lodi Road H.O" || d.To.Kind != "point" || d.To.Latitude != 28.5 || d.To.Longitude != 77.2 {
		t.Errorf("110003 to a point: from %+v, to %+v", d.From, d.To)
	}
	if math.Abs(d.BearingDegrees-geo.InitialBearing(geo.Point{Lat: 28.591, Lon: 77.227}, geo.Point{Lat: 28.5, Lon: 77.2})) > 0.005 {
		t.Errorf("bearing_degrees = %v", d.BearingDegrees)
	}

	res := wantError(t, h, http.MethodGet, "/api/v1/distance?from=110001", "", "", http.StatusBadRequest, "bad_request")
	if len(res.Errors["to"]) == 0 {
		t.Errorf("without to: errors %+v, want one on to", res.Errors)
	}
	for target, field := range map[string]string{
		"/api/v1/distance?from=hello&to=110001":                       "from",
		"/api/v1/distance?from=110001&to=11000":                       "to",
		"/api/v1/distance?from=110001&to=39J-49L-L8T":                 "to",
		"/api/v1/distance?from=95,77&to=110001":                       "from",
		"/api/v1/distance?from=110001&to=" + strings.Repeat("9", 101): "to",
	} {
		res := wantError(t, h, http.MethodGet, target, "", "", http.StatusUnprocessableEntity, "validation_failed")
		if len(res.Errors[field]) == 0 || len(res.Errors) != 1 {
			t.Errorf("%s: errors %+v, want one on %s", target, res.Errors, field)
		}
	}
	if res := wantError(t, h, http.MethodGet, "/api/v1/distance?from=110001&to=hello", "", "", http.StatusUnprocessableEntity, "validation_failed"); !strings.Contains(strings.Join(res.Errors["to"], " "), "DIGIPIN") {
		t.Errorf("to=hello: %v, want the accepted forms named", res.Errors)
	}
	wantError(t, h, http.MethodGet, "/api/v1/distance?from=999999&to=110001", "", "", http.StatusNotFound, "not_found")
}

// TestDistanceHTTPUnlocatedPincode: a PIN whose offices have no location
// is a 422 on its parameter.
func TestDistanceHTTPUnlocatedPincode(t *testing.T) {
	h := postalHandler(memory.NewPostalStore(postal.Build([]postal.RawOffice{
		{Row: 1, Name: "Lost B.O", Pincode: "800003", OfficeType: "BO", Delivery: "Delivery", District: "PATNA", State: "BIHAR", Latitude: "NA", Longitude: "NA"},
		{Row: 2, Name: "Found B.O", Pincode: "800004", OfficeType: "BO", Delivery: "Delivery", District: "PATNA", State: "BIHAR", Latitude: "25.6", Longitude: "85.1"},
	}, nil, nil)))
	res := wantError(t, h, http.MethodGet, "/api/v1/distance?from=800004&to=800003", "", "", http.StatusUnprocessableEntity, "validation_failed")
	if len(res.Errors["to"]) != 1 || !strings.Contains(res.Errors["to"][0], "location") {
		t.Errorf("errors %+v, want one on to saying no office has a location", res.Errors)
	}
}
