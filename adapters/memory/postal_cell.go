package memory

import (
	"context"

	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
)

// cellRadiusSlack widens the circle around a cell so that rounding in the
// distances can never leave out one of its corners; what the circle holds
// beyond the cell is filtered out.
const cellRadiusSlack = 1e-6 // km

// CellOffices implements ports.PostalStore with the spatial index: the
// located offices within the circle around the cell's box, kept when the
// cell holds them, ordered as DistrictOffices orders.
func (s *PostalStore) CellOffices(_ context.Context, cell digipin.Cell, page paging.Page) ([]postal.PostOffice, int, error) {
	ix, err := s.index()
	if err != nil {
		return nil, 0, err
	}
	centre, radius := cellCircle(cell.Bounds())
	offices := ix.ds.Offices
	var in []int32
	for _, item := range ix.near.tree.AppendWithin(nil, centre, radius) {
		i := ix.near.offices[item]
		if l := offices[i].Location; cell.Contains(l.Latitude, l.Longitude) {
			in = append(in, i)
		}
	}
	ix.sortOffices(in, true)
	from, to := page.Bounds(len(in))
	return ix.offices(in[from:to]), len(in), nil
}

// cellCircle returns a circle holding the box: its centre, and the largest
// distance to a corner (in a box of latitude and longitude a few degrees
// wide, the farthest point from the centre is a corner).
func cellCircle(b digipin.Rect) (geo.Point, float64) {
	lat, lon := b.Center()
	centre := geo.Point{Lat: lat, Lon: lon}
	radius := 0.0
	for _, corner := range []geo.Point{{Lat: b.MinLat, Lon: b.MinLon}, {Lat: b.MinLat, Lon: b.MaxLon}, {Lat: b.MaxLat, Lon: b.MinLon}, {Lat: b.MaxLat, Lon: b.MaxLon}} {
		radius = max(radius, geo.DistanceKm(centre, corner))
	}
	return centre, radius*(1+1e-9) + cellRadiusSlack
}
