package postgres

import (
	"context"
	"sort"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
)

// The database's distance (PostGIS, `<->` on geography) only orders
// candidates; the answer's distances are geo.DistanceKm of the stored
// coordinates. The two agree to far better than these bounds, which decide
// when enough candidates were read to be sure of the nearest ones.
const (
	knnRelTolerance = 0.01  // 1 %, more than sphere against spheroid
	knnAbsTolerance = 0.001 // km
	knnFirstExtra   = 32    // candidates read beyond limit at first (shared points tie)
)

// nearbyCandidate is an office with the database's distance in metres.
type nearbyCandidate struct {
	officeRow `bun:",extend"`
	Metres    float64 `bun:"metres,scanonly"`
}

// NearestOffices implements ports.PostalStore: the GiST index yields
// offices nearest first; reading stops once every office not read is
// provably further (in Haversine terms) than the limit-th one read.
func (s *PostalStore) NearestOffices(ctx context.Context, q geo.NearQuery) ([]postal.NearbyRef, error) {
	p, limit, withinKm := q.Point, q.Limit, q.RadiusKm
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	if limit <= 0 {
		_, err := s.Info(ctx) // still ErrNoData on an empty store
		return []postal.NearbyRef{}, err
	}
	var out []postal.NearbyRef
	err := s.read(ctx, "nearest offices", func(tx bun.Tx) error {
		for n := limit + knnFirstExtra; ; n *= 4 {
			rows, err := nearestCandidates(ctx, tx, p, n, withinKm)
			if err != nil {
				return err
			}
			if len(rows) == 0 {
				out = []postal.NearbyRef{}
				return noData(ctx, tx)
			}
			var done bool
			out, done = rankNearby(rows, p, limit, withinKm, len(rows) < n)
			if done {
				return nil
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// nearestCandidates reads the n located offices nearest to p by the
// index's distance, within a radius widened by the tolerances when given.
func nearestCandidates(ctx context.Context, tx bun.Tx, p geo.Point, n int, withinKm float64) ([]nearbyCandidate, error) {
	point := bun.SafeQuery("ST_SetSRID(ST_MakePoint(?, ?), 4326)::geography", p.Lon, p.Lat)
	var rows []nearbyCandidate
	q := tx.NewSelect().Model(&rows).Column(officeColumns...).
		ColumnExpr("o.location <-> ? AS metres", point).
		Where("o.location IS NOT NULL").
		OrderExpr("o.location <-> ?", point).Limit(int64(n))
	if withinKm > 0 {
		q.Where("ST_DWithin(o.location, ?, ?, false)", point, (withinKm*(1+knnRelTolerance)+knnAbsTolerance)*1000)
	}
	return rows, q.Scan(ctx)
}

// rankNearby computes the Haversine distances, keeps those within the
// radius, orders by distance then id and takes limit. done reports that the
// answer is certain: every candidate was read (exhausted), or the last one
// read is, with the tolerances, further than the limit-th result.
func rankNearby(rows []nearbyCandidate, p geo.Point, limit int, withinKm float64, exhausted bool) ([]postal.NearbyRef, bool) {
	offices := make([]postal.PostOffice, len(rows)) // the records the results point to
	all := make([]postal.NearbyRef, 0, len(rows))
	for i := range rows {
		o := &offices[i]
		*o = rows[i].toDomain()
		d := geo.DistanceKm(p, geo.Point{Lat: o.Location.Latitude, Lon: o.Location.Longitude})
		if withinKm <= 0 || d <= withinKm {
			all = append(all, postal.NearbyRef{Office: o, DistanceKm: d})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].DistanceKm != all[j].DistanceKm {
			return all[i].DistanceKm < all[j].DistanceKm
		}
		return all[i].Office.ID < all[j].Office.ID
	})
	out := all[:min(limit, len(all))]
	if exhausted {
		return out, true
	}
	if len(out) < limit {
		return out, false // more within the radius may follow
	}
	lastKm := rows[len(rows)-1].Metres / 1000
	return out, lastKm*(1-knnRelTolerance)-knnAbsTolerance > out[len(out)-1].DistanceKm
}
