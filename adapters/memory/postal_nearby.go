package memory

import (
	"context"
	"sort"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
)

// NearestOffices implements ports.PostalStore by scanning every located
// office.
func (s *PostalStore) NearestOffices(_ context.Context, p geo.Point, limit int, withinKm float64) ([]postal.Nearby, error) {
	ix, err := s.index()
	if err != nil {
		return nil, err
	}
	var out []postal.Nearby
	for _, o := range ix.ds.Offices {
		if o.Location == nil {
			continue
		}
		d := geo.DistanceKm(p, geo.Point{Lat: o.Location.Latitude, Lon: o.Location.Longitude})
		if withinKm <= 0 || d <= withinKm {
			out = append(out, postal.Nearby{Office: o, DistanceKm: d})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].DistanceKm != out[j].DistanceKm {
			return out[i].DistanceKm < out[j].DistanceKm
		}
		return out[i].Office.ID < out[j].Office.ID
	})
	return out[:min(limit, len(out))], nil
}
