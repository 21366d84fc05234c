package memory

import (
	"context"
	"slices"

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
// cell holds them, ordered as DistrictOffices orders (see cellPage).
func (s *PostalStore) CellOffices(_ context.Context, cell digipin.Cell, page paging.Page) ([]postal.PostOffice, int, error) {
	ix, err := s.index()
	if err != nil {
		return nil, 0, err
	}
	centre, radius := cellCircle(cell.Bounds())
	offices := ix.ds.Offices
	var in []uint64
	for _, item := range ix.near.tree.AppendWithin(nil, centre, radius) {
		i := ix.near.offices[item]
		if o := &offices[i]; cell.Contains(o.Location.Latitude, o.Location.Longitude) {
			in = append(in, pinNumber(o.Pincode)<<32|uint64(i))
		}
	}
	from, to := page.Bounds(len(in))
	return ix.offices(ix.cellPage(in, from, to)), len(in), nil
}

// pinNumber is a pincode as a number: loaded pincodes are six digits
// (postal.ValidPincode), so numbers order as the pincodes do.
func pinNumber(pin postal.Pincode) uint64 {
	n := uint64(0)
	for i := 0; i < len(pin); i++ {
		n = n*10 + uint64(pin[i]-'0')
	}
	return n
}

// cellPage returns the offices from..to of in (each an office's pinNumber
// above its position in the dataset) by pincode, then name key, then id.
// Sorting whole lists by name key is the cost of a large cell, so it sorts
// the numbers, which orders by pincode, and orders by name key only the
// pincodes the page reaches, through the PIN's own list (byPin: by name
// key, then id).
func (ix *postalIndex) cellPage(in []uint64, from, to int) []int32 {
	slices.Sort(in)
	out := make([]int32, 0, to-from)
	for start, n := 0, 0; start < len(in) && n < to; {
		end := start + 1
		for end < len(in) && in[end]>>32 == in[start]>>32 {
			end++
		}
		run := in[start:end]
		if n+len(run) <= from {
			n += len(run)
		} else {
			pin := in[start] >> 32 << 32
			for _, i := range ix.byPin[ix.ds.Offices[uint32(in[start])].Pincode] {
				if _, found := slices.BinarySearch(run, pin|uint64(i)); found {
					if n >= from && n < to {
						out = append(out, i)
					}
					n++
				}
			}
		}
		start = end
	}
	return out
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
