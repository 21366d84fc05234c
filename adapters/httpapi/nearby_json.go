package httpapi

import (
	"strconv"

	"github.com/pinsight/pinsight/adapters/internal/jsonappend"
	"github.com/pinsight/pinsight/domain/postal"
)

// appendJSON appends d as encoding/json writes it (see marshalJSON): the
// nearby answer is on a hot path, and reflection was most of its encoding.
func (d *nearbyData) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"latitude":`...)
	dst = jsonappend.Float(dst, d.Latitude)
	dst = append(dst, `,"longitude":`...)
	dst = jsonappend.Float(dst, d.Longitude)
	dst = append(dst, `,"radius_km":`...)
	dst = jsonappend.Float(dst, d.RadiusKm)
	dst = append(dst, `,"within_radius":`...)
	dst = strconv.AppendBool(dst, d.WithinRadius)
	dst = append(dst, `,"post_offices":`...)
	return append(d.PostOffices.appendJSON(dst), '}')
}

// appendJSON appends the records of n (null when nil) as encoding/json
// writes their wire.NearbyOffice (nearbyOffice): straight from the
// directory's offices, with no record built.
func (n nearbyOffices) appendJSON(dst []byte) []byte {
	if n == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i := range n {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendNearbyOffice(dst, &n[i])
	}
	return append(dst, ']')
}

// appendNearbyOffice appends the record of n (nearbyOffice of n.Nearby())
// as encoding/json writes it.
func appendNearbyOffice(dst []byte, n *postal.NearbyRef) []byte {
	o := n.Office
	dst = append(dst, `{"id":`...)
	dst = strconv.AppendInt(dst, o.ID, 10)
	dst = append(dst, `,"pincode":`...)
	dst = jsonappend.String(dst, string(o.Pincode))
	dst = append(dst, `,"post_office":`...)
	dst = jsonappend.String(dst, o.Name)
	dst = append(dst, `,"branch_type":`...)
	dst = jsonappend.String(dst, postal.BranchTypeName(o.OfficeType))
	dst = append(dst, `,"delivery_status":`...)
	dst = jsonappend.String(dst, o.Delivery)
	dst = append(dst, `,"district":`...)
	dst = jsonappend.OptString(dst, optStringAt(&o.District))
	dst = append(dst, `,"state":`...)
	dst = jsonappend.OptString(dst, optStringAt(&o.State))
	dst = append(dst, `,"location":{"latitude":`...)
	dst = jsonappend.Float(dst, o.Location.Latitude)
	dst = append(dst, `,"longitude":`...)
	dst = jsonappend.Float(dst, o.Location.Longitude)
	dst = append(dst, `},"location_quality":`...)
	dst = jsonappend.String(dst, string(o.Quality))
	dst = append(dst, `,"distance_km":`...)
	dst = jsonappend.Float(dst, roundKm(n.DistanceKm))
	dst = append(dst, `,"reviews_count":`...)
	dst = strconv.AppendInt(dst, int64(n.Feedback.Reviews), 10)
	dst = append(dst, `,"likes_count":`...)
	dst = strconv.AppendInt(dst, int64(n.Feedback.Likes), 10)
	dst = append(dst, `,"rating":`...)
	if r, ok := n.Feedback.Rating(); ok {
		dst = jsonappend.Float(dst, roundRating(r))
	} else {
		dst = append(dst, "null"...)
	}
	return append(dst, '}')
}
