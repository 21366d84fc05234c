package httpapi

import (
	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app/geocode"
	"github.com/pinsight/pinsight/geo"
)

// pointMissing is huma's wording for a missing parameter, which the error
// mapping turns into a 400 "is required".
const pointMissing = "required query parameter is missing"

// resolvePointQuery checks that a request gives either point or both
// latitude and longitude: missing -> 400 on the missing field, both forms ->
// 422 on point. The values themselves are validated by their schemas.
func resolvePointQuery(ctx huma.Context) []error {
	if ctx.Query("point") != "" {
		if ctx.Query("latitude") != "" || ctx.Query("longitude") != "" {
			return []error{fieldError("query.point", "give either point or latitude and longitude, not both")}
		}
		return nil
	}
	var errs []error
	for _, f := range []string{"latitude", "longitude"} {
		if ctx.Query(f) == "" {
			errs = append(errs, &huma.ErrorDetail{Location: "query." + f, Message: pointMissing})
		}
	}
	return errs
}

// queryPoint is the point of a request: the parsed point parameter (which
// must lie in box) or the numeric pair.
func queryPoint(point string, lat, lon float64, box geo.Box) (geo.Point, error) {
	if point != "" {
		return geocode.ParsePoint(point, box)
	}
	return geo.Point{Lat: lat, Lon: lon}, nil
}
