package memory

import (
	"context"
	"sort"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
)

// nearIndex is the spatial index over the offices with a known location.
type nearIndex struct {
	tree    *geo.Index
	offices []int32 // tree item -> position in the dataset's offices, by office id
}

// newNearIndex indexes the located offices. Items are numbered in office id
// order, so the index's ties (by item) are the port's ties (by id).
func newNearIndex(offices []postal.PostOffice) nearIndex {
	var n nearIndex
	for i := range offices {
		if offices[i].Location != nil {
			n.offices = append(n.offices, int32(i))
		}
	}
	sort.Slice(n.offices, func(a, b int) bool { return offices[n.offices[a]].ID < offices[n.offices[b]].ID })
	points := make([]geo.Point, len(n.offices))
	for i, j := range n.offices {
		l := offices[j].Location
		points[i] = geo.Point{Lat: l.Latitude, Lon: l.Longitude}
	}
	n.tree = geo.NewIndex(points)
	return n
}

// NearestOffices implements ports.PostalStore with the spatial index: the
// results point into the loaded dataset, which is never written.
func (s *PostalStore) NearestOffices(_ context.Context, q geo.NearQuery) ([]postal.NearbyRef, error) {
	ix, err := s.index()
	if err != nil {
		return nil, err
	}
	found := ix.near.tree.NearestWithin(q)
	out := make([]postal.NearbyRef, len(found))
	for i, n := range found {
		out[i] = postal.NearbyRef{Office: &ix.ds.Offices[ix.near.offices[n.Item]], DistanceKm: n.DistanceKm}
	}
	return out, nil
}
