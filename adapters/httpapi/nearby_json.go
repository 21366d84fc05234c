package httpapi

import (
	"strconv"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/adapters/internal/jsonappend"
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
	if d.PostOffices == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i := range d.PostOffices {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendNearbyOffice(dst, &d.PostOffices[i])
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// appendNearbyOffice appends o as encoding/json writes it.
func appendNearbyOffice(dst []byte, o *wire.NearbyOffice) []byte {
	dst = append(dst, `{"id":`...)
	dst = strconv.AppendInt(dst, o.ID, 10)
	dst = append(dst, `,"pincode":`...)
	dst = jsonappend.String(dst, o.Pincode)
	dst = append(dst, `,"post_office":`...)
	dst = jsonappend.String(dst, o.PostOffice)
	dst = append(dst, `,"branch_type":`...)
	dst = jsonappend.String(dst, o.BranchType)
	dst = append(dst, `,"delivery_status":`...)
	dst = jsonappend.String(dst, o.DeliveryStatus)
	dst = append(dst, `,"district":`...)
	dst = jsonappend.OptString(dst, o.District)
	dst = append(dst, `,"state":`...)
	dst = jsonappend.OptString(dst, o.State)
	dst = append(dst, `,"location":{"latitude":`...)
	dst = jsonappend.Float(dst, o.Location.Latitude)
	dst = append(dst, `,"longitude":`...)
	dst = jsonappend.Float(dst, o.Location.Longitude)
	dst = append(dst, `},"location_quality":`...)
	dst = jsonappend.String(dst, o.LocationQuality)
	dst = append(dst, `,"distance_km":`...)
	dst = jsonappend.Float(dst, o.DistanceKm)
	dst = append(dst, `,"reviews_count":`...)
	dst = strconv.AppendInt(dst, int64(o.ReviewsCount), 10)
	dst = append(dst, `,"likes_count":`...)
	dst = strconv.AppendInt(dst, int64(o.LikesCount), 10)
	dst = append(dst, `,"rating":`...)
	if o.Rating == nil {
		dst = append(dst, "null"...)
	} else {
		dst = jsonappend.Float(dst, *o.Rating)
	}
	return append(dst, '}')
}
