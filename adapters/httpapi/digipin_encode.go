package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/digipin"
)

type encodeInput struct {
	Body struct {
		Latitude  *float64 `json:"latitude,omitempty" minimum:"2.5" maximum:"38.5" doc:"Latitude in decimal degrees, 2.5 to 38.5. Required unless point is given."`
		Longitude *float64 `json:"longitude,omitempty" minimum:"63.5" maximum:"99.5" doc:"Longitude in decimal degrees, 63.5 to 99.5. Required unless point is given."`
		Point     string   `json:"point,omitempty" maxLength:"100" doc:"Loose alternative to latitude and longitude: \"28.6, 77.2\", \"28.6N 77.2E\" or DMS such as 28°36'30\"N 77°12'E."`
		Precision *int     `json:"precision,omitempty" minimum:"1" maximum:"10" doc:"Number of symbols, 1 to 10: the answer is the prefix of that many symbols (the cell of that level) with its bounds. Absent: the full 10-symbol code, without precision and bounds."`
	}
}

// point is the body's point: the parsed point field, or the numeric pair.
// Missing coordinates are a 400 naming them; both forms at once a 422.
func (in *encodeInput) point() (float64, float64, error) {
	b := in.Body
	if b.Point != "" {
		if b.Latitude != nil || b.Longitude != nil {
			return 0, 0, invalid("point", "give either point or latitude and longitude, not both")
		}
		p, err := geocode.ParsePoint(b.Point, geocode.DigipinBox)
		return p.Lat, p.Lon, toHTTP(err)
	}
	var missing []error
	if b.Latitude == nil {
		missing = append(missing, fieldError("latitude", "is required"))
	}
	if b.Longitude == nil {
		missing = append(missing, fieldError("longitude", "is required"))
	}
	if len(missing) > 0 {
		return 0, 0, newError(http.StatusBadRequest, "missing required field", missing...)
	}
	return *b.Latitude, *b.Longitude, nil
}

func registerDigipinEncode(g huma.API) {
	registerForm(g, huma.Operation{
		OperationID: "digipin-encode", Method: http.MethodPost, Path: "/digipin/encode",
		Summary: "Encode a point as a DIGIPIN", Tags: []string{"DIGIPIN"},
		Description: "Numeric latitude and longitude, or a loose point string. 400 when coordinates are missing, 422 when out of the grid. " +
			"With precision (1 to 10), the prefix of that many symbols, grouped like a full code (\"39J-49\" for 5 symbols: hyphens after the " +
			"3rd and 6th symbols when reached), with its precision and its cell's bounds; 422 (on precision) outside 1 to 10.",
	}, func(_ context.Context, in *encodeInput) (*reply[encodeData], error) {
		lat, lon, err := in.point()
		if err != nil {
			return nil, err
		}
		c, err := digipin.EncodeCode(lat, lon)
		if err != nil {
			return nil, toHTTP(err)
		}
		out := encodeData{Digipin: c.String(), Latitude: lat, Longitude: lon}
		if p := in.Body.Precision; p != nil {
			cell := digipin.CellOf(c, *p)
			b := boundsDataOf(cell.Bounds())
			out.Digipin, out.Precision, out.Bounds = cell.String(), p, &b
		}
		return ok(out), nil
	})
}
