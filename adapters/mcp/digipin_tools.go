package mcp

import (
	"context"
	"errors"
	"fmt"
	"math"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/postal"
)

// maxCode bounds the text of a DIGIPIN argument.
const maxCode = 100

type encodeArgs struct {
	Latitude  *float64 `json:"latitude,omitempty" jsonschema:"Decimal degrees, 2.5 to 38.5 (the DIGIPIN grid); with longitude, unless point is given."`
	Longitude *float64 `json:"longitude,omitempty" jsonschema:"Decimal degrees, 63.5 to 99.5; with latitude, unless point is given."`
	Point     string   `json:"point,omitempty" jsonschema:"Instead of latitude and longitude, a point as text: \"28.6, 77.2\", \"28.6N 77.2E\" or degrees-minutes-seconds."`
}

type encodeResult struct {
	Digipin   string  `json:"digipin" jsonschema:"The code, XXX-XXX-XXXX."`
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
}

type codeArgs struct {
	Digipin string `json:"digipin" jsonschema:"A DIGIPIN: 10 symbols, hyphens optional, either case, e.g. 39J-49L-L8T4."`
}

type bounds struct {
	MinLatitude  float64 `json:"min_latitude"`
	MaxLatitude  float64 `json:"max_latitude"`
	MinLongitude float64 `json:"min_longitude"`
	MaxLongitude float64 `json:"max_longitude"`
}

type decodeResult struct {
	Digipin   string  `json:"digipin"`
	Latitude  float64 `json:"latitude" jsonschema:"Cell centre, 6 decimals."`
	Longitude float64 `json:"longitude" jsonschema:"Cell centre, 6 decimals."`
	Bounds    bounds  `json:"bounds" jsonschema:"The cell's extent (about 3.8 m square)."`
}

type validateResult struct {
	Digipin   string  `json:"digipin" jsonschema:"The code as sent."`
	Valid     bool    `json:"valid"`
	Reason    *string `json:"reason" jsonschema:"Why the code is invalid; null when valid."`
	Formatted *string `json:"formatted" jsonschema:"The code as XXX-XXX-XXXX; null when invalid."`
}

type nearestArgs struct {
	encodeArgs
	Limit int `json:"limit,omitempty" jsonschema:"Most offices returned, 1 to 10; default 3."`
}

type nearestOffice struct {
	nearbyOffice
	MatchedBy string `json:"matched_by" jsonschema:"boundary: its PIN's boundary contains the point; distance: by distance alone."`
}

type nearestResult struct {
	Digipin     string          `json:"digipin"`
	Latitude    float64         `json:"latitude"`
	Longitude   float64         `json:"longitude"`
	PostOffices []nearestOffice `json:"post_offices" jsonschema:"Offices matched by boundary first, then by distance."`
}

func (t *tools) addDigipin(s *sdk.Server) {
	addTool(s, t, &sdk.Tool{Name: "digipin_encode", Title: "Point to DIGIPIN", Annotations: readOnly,
		Description: "The DIGIPIN (India Post's 10-character geocode of a ~4 m cell) of a point in India, given as " +
			"latitude and longitude or as text. invalid_argument outside the DIGIPIN grid."},
		func(_ context.Context, _ *sdk.CallToolRequest, in encodeArgs) (encodeResult, string, error) {
			at, err := pointOf(in.Point, in.Latitude, in.Longitude, geocode.DigipinBox)
			if err != nil {
				return encodeResult{}, "", err
			}
			c, err := digipin.EncodeCode(at.Lat, at.Lon)
			if err != nil {
				return encodeResult{}, "", err
			}
			return encodeResult{Digipin: c.String(), Latitude: at.Lat, Longitude: at.Lon},
				fmt.Sprintf("DIGIPIN of %.6f, %.6f: %s", at.Lat, at.Lon, c), nil
		})
	addTool(s, t, &sdk.Tool{Name: "digipin_decode", Title: "DIGIPIN to point", Annotations: readOnly,
		Description: "The centre and extent of a DIGIPIN's cell. invalid_argument when the code is malformed; " +
			"digipin_validate says why without failing."},
		func(_ context.Context, _ *sdk.CallToolRequest, in codeArgs) (decodeResult, string, error) {
			if err := checkLen("digipin", in.Digipin, maxCode); err != nil {
				return decodeResult{}, "", err
			}
			c, err := digipin.ParseCode(in.Digipin)
			if err != nil {
				return decodeResult{}, "", err
			}
			lat, lon := digipin.DecodeCode(c)
			b := digipin.CellOf(c, digipin.Levels).Bounds()
			out := decodeResult{Digipin: c.String(), Latitude: round6(lat), Longitude: round6(lon),
				Bounds: bounds{MinLatitude: b.MinLat, MaxLatitude: b.MaxLat, MinLongitude: b.MinLon, MaxLongitude: b.MaxLon}}
			return out, fmt.Sprintf("%s is the cell centred on %.6f, %.6f", c, out.Latitude, out.Longitude), nil
		})
	addTool(s, t, &sdk.Tool{Name: "digipin_validate", Title: "Check a DIGIPIN", Annotations: readOnly,
		Description: "Whether a text is a well-formed DIGIPIN (syntax only), with the reason when it is not and the " +
			"canonical XXX-XXX-XXXX form when it is. Never fails for a malformed code."},
		func(_ context.Context, _ *sdk.CallToolRequest, in codeArgs) (validateResult, string, error) {
			if err := checkLen("digipin", in.Digipin, maxCode); err != nil {
				return validateResult{}, "", err
			}
			out := validateResult{Digipin: in.Digipin}
			c, err := digipin.ParseCode(in.Digipin)
			var se *digipin.SyntaxError
			switch {
			case errors.As(err, &se):
				reason := se.Reason()
				out.Reason = &reason
				return out, "not a valid DIGIPIN: " + reason, nil
			case err != nil:
				return validateResult{}, "", err
			}
			formatted := c.String()
			out.Valid, out.Formatted = true, &formatted
			return out, "valid DIGIPIN: " + formatted, nil
		})
	addTool(s, t, &sdk.Tool{Name: "digipin_nearest", Title: "Post offices serving a point", Annotations: readOnly,
		Description: "A point's DIGIPIN and the post offices serving it: those of the PIN whose boundary contains the " +
			"point first (when boundaries are loaded), then the nearest by distance. Use it to find the PIN code of a place " +
			"known by coordinates."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in nearestArgs) (nearestResult, string, error) {
			at, err := pointOf(in.Point, in.Latitude, in.Longitude, geocode.DigipinBox)
			bad := argErrors{}
			in.Limit = int(bounded(bad, "limit", float64(in.Limit), defaultNearest, 1, maxNearest))
			if err != nil {
				return nearestResult{}, "", err
			}
			if err := bad.err(); err != nil {
				return nearestResult{}, "", err
			}
			res, err := t.Geocoder.Nearest(ctx, at, in.Limit)
			if err != nil {
				return nearestResult{}, "", err
			}
			nearby := make([]postal.Nearby, len(res.Offices))
			for i, o := range res.Offices {
				nearby[i] = o.Nearby
			}
			if err := t.Directory.WithNearbyFeedback(ctx, nearby); err != nil {
				return nearestResult{}, "", err
			}
			out := nearestResult{Digipin: res.Digipin, Latitude: at.Lat, Longitude: at.Lon, PostOffices: make([]nearestOffice, len(nearby))}
			for i, n := range nearby {
				out.PostOffices[i] = nearestOffice{nearbyOffice: nearbyOf(n), MatchedBy: res.Offices[i].MatchedBy}
			}
			text := fmt.Sprintf("DIGIPIN %s", res.Digipin)
			if len(nearby) > 0 {
				text += fmt.Sprintf("; served by %s, PIN %s (%s)", nearby[0].Office.Name, nearby[0].Office.Pincode, res.Offices[0].MatchedBy)
			}
			return out, text, nil
		})
}

// round6 rounds to 6 decimals (about 0.1 m).
func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }
