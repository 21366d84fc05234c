package httpapi

import (
	"context"
	"math"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/digipin"
)

// maxBatch is the largest number of items a batch request may hold.
const maxBatch = 100

// metresPerDegree is the length of one degree of latitude on the mean
// Earth sphere (R = 6371.0088 km).
const metresPerDegree = 6371008.8 * math.Pi / 180

// encodeData is the result of encoding a point, at full precision or as a
// prefix.
type encodeData struct {
	Digipin   string      `json:"digipin" example:"39J-49L-L8T4" doc:"The code, XXX-XXX-XXXX; with precision, the prefix of that many symbols in the same grouping (\"39J-49\")."`
	Latitude  float64     `json:"latitude"`
	Longitude float64     `json:"longitude"`
	Precision *int        `json:"precision,omitempty" minimum:"1" maximum:"10" doc:"The number of symbols, as requested; absent when the request gave no precision."`
	Bounds    *boundsData `json:"bounds,omitempty" doc:"The extent of the prefix's cell; absent when the request gave no precision."`
}

type decodeInput struct {
	Geometry bool `query:"geometry" doc:"Also return the cell as a GeoJSON Polygon."`
	Body     struct {
		Digipin string `json:"digipin" doc:"10 symbols, hyphens optional, either case." example:"39J-49L-L8T4"`
	}
}

// decodeData is the centre and extent of a code's cell.
type decodeData struct {
	Digipin   string       `json:"digipin"`
	Latitude  float64      `json:"latitude" doc:"Cell centre, 6 decimals."`
	Longitude float64      `json:"longitude" doc:"Cell centre, 6 decimals."`
	Bounds    boundsData   `json:"bounds" doc:"The cell's extent."`
	Geometry  *geoJSONRect `json:"geometry,omitempty" doc:"The cell as a GeoJSON Polygon (with ?geometry=true)."`
}

// boundsData is a latitude / longitude box.
type boundsData struct {
	MinLatitude  float64 `json:"min_latitude"`
	MaxLatitude  float64 `json:"max_latitude"`
	MinLongitude float64 `json:"min_longitude"`
	MaxLongitude float64 `json:"max_longitude"`
}

func boundsDataOf(b digipin.Rect) boundsData {
	return boundsData{MinLatitude: b.MinLat, MaxLatitude: b.MaxLat, MinLongitude: b.MinLon, MaxLongitude: b.MaxLon}
}

// geoJSONRect is a GeoJSON Polygon geometry ([longitude, latitude] order).
type geoJSONRect struct {
	Type        string         `json:"type" enum:"Polygon"`
	Coordinates [][][2]float64 `json:"coordinates"`
}

type validateInput struct {
	Digipin string `query:"digipin" required:"true" doc:"The code to check."`
}

// validateData tells whether a code is well-formed.
type validateData struct {
	Digipin   string  `json:"digipin" doc:"The code as sent."`
	Valid     bool    `json:"valid"`
	Reason    *string `json:"reason" doc:"Why the code is invalid; null when valid."`
	Formatted *string `json:"formatted" doc:"The code as XXX-XXX-XXXX; null when invalid."`
}

func registerDigipin(api huma.API) {
	g := group(api)
	registerDigipinEncode(g)
	registerForm(g, huma.Operation{
		OperationID: "digipin-decode", Method: http.MethodPost, Path: "/digipin/decode",
		Summary: "Decode a DIGIPIN to its cell centre", Tags: []string{"DIGIPIN"},
		Description: "The centre of the code's level-10 cell (6 decimals) and the cell's bounds; with ?geometry=true, the cell as a GeoJSON Polygon too. A malformed code is 422 on digipin.",
	}, func(_ context.Context, in *decodeInput) (*reply[decodeData], error) {
		c, err := digipin.ParseCode(in.Body.Digipin)
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(decodeDataOf(c, in.Geometry)), nil
	})
	huma.Register(g, huma.Operation{
		OperationID: "digipin-validate", Method: http.MethodGet, Path: "/digipin/validate",
		Summary: "Check the syntax of a DIGIPIN", Tags: []string{"DIGIPIN"},
		Description: "Syntax only. An invalid code still answers 200 with valid=false and a reason.",
	}, func(_ context.Context, in *validateInput) (*reply[validateData], error) {
		out := validateData{Digipin: in.Digipin}
		c, err := digipin.ParseCode(in.Digipin)
		if se, isSyntax := err.(*digipin.SyntaxError); isSyntax {
			reason := se.Reason()
			out.Reason = &reason
		} else {
			formatted := c.String()
			out.Valid, out.Formatted = true, &formatted
		}
		return ok(out), nil
	})
	registerDigipinInfo(g)
	registerDigipinNeighbours(g)
	registerDigipinBatch(g)
}

func decodeDataOf(c digipin.Code, geometry bool) decodeData {
	lat, lon := digipin.DecodeCode(c)
	b := digipin.CellOf(c, digipin.Levels).Bounds()
	d := decodeData{Digipin: c.String(), Latitude: round6(lat), Longitude: round6(lon), Bounds: boundsDataOf(b)}
	if geometry {
		d.Geometry = rectGeoJSON(b)
	}
	return d
}

// rectGeoJSON returns a box as a closed, counter-clockwise GeoJSON ring.
func rectGeoJSON(b digipin.Rect) *geoJSONRect {
	return &geoJSONRect{Type: "Polygon", Coordinates: [][][2]float64{{
		{b.MinLon, b.MinLat}, {b.MaxLon, b.MinLat}, {b.MaxLon, b.MaxLat}, {b.MinLon, b.MaxLat}, {b.MinLon, b.MinLat},
	}}}
}

// round6 rounds to 6 decimals, as the official implementation prints.
func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }
