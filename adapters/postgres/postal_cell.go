package postgres

import (
	"context"

	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
)

// cellMargin widens the envelope that picks a cell's candidates through
// the location index, as a share of the cell's side: the envelope is a
// geography, whose edges are great circles, and along a parallel they
// stray from it by far less (under 2 % of the side for a level-1 cell, and
// less the smaller the cell).
const cellMargin = 0.05

// cellWhere selects the offices in a cell: candidates from the GiST index
// on location, then the exact test on the stored coordinates against the
// cell's float64 ranges (digipin.Cell.Extent), which is what the memory
// store's digipin.Cell.Contains decides.
const cellWhere = "o.location && ST_MakeEnvelope(?::float8, ?::float8, ?::float8, ?::float8, 4326)::geography" +
	" AND o.latitude >= ?::float8 AND o.latitude < ?::float8 AND o.longitude >= ?::float8 AND o.longitude < ?::float8"

// CellOffices implements ports.PostalStore.
func (s *PostalStore) CellOffices(ctx context.Context, cell digipin.Cell, page paging.Page) ([]postal.PostOffice, int, error) {
	e := cell.Extent()
	m := (e.MaxLat - e.MinLat) * cellMargin
	return s.officesPage(ctx, "cell offices", page, cellWhere,
		e.MinLon-m, e.MinLat-m, e.MaxLon+m, e.MaxLat+m, e.MinLat, e.MaxLat, e.MinLon, e.MaxLon)
}
