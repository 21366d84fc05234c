package directory

import (
	"context"
	"fmt"
	"math"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
)

// DefaultNearbyLimit is how many offices Nearby returns when the query
// gives no limit.
const DefaultNearbyLimit = 5

// NearbyResult is the answer of Nearby.
type NearbyResult struct {
	Offices []postal.Nearby // nearest first, ties by id
	// WithinRadius is false when nothing lay within the radius and Offices
	// are the closest ones at any distance instead.
	WithinRadius bool
}

// NearbyRefsResult is the answer of NearbyRefs: NearbyResult with the
// offices by reference.
type NearbyRefsResult struct {
	Offices      []postal.NearbyRef // nearest first, ties by id; never written
	WithinRadius bool
}

// Nearby returns up to q.Limit located offices (DefaultNearbyLimit when 0)
// within q.RadiusKm of q.Point, nearest first; when none lies within the
// radius, the closest ones at any distance, with WithinRadius false. A zero
// RadiusKm means any distance. Offices without a location are never
// returned. A point off the globe, a negative, infinite or NaN radius and a
// negative limit are a *postal.ValidationError; any radius and limit beyond
// are accepted (limits are the transport's).
func (dir *Directory) Nearby(ctx context.Context, q geo.NearQuery) (NearbyResult, error) {
	refs, err := dir.NearbyRefs(ctx, q)
	var offices []postal.Nearby
	if refs.Offices != nil {
		offices = make([]postal.Nearby, len(refs.Offices))
		for i := range refs.Offices {
			offices[i] = refs.Offices[i].Nearby()
		}
	}
	return NearbyResult{Offices: offices, WithinRadius: refs.WithinRadius}, err
}

// NearbyRefs is Nearby with the offices by reference (the store's records,
// shared: the caller must not write them), their feedback beside them: an
// answer that only reads its offices (a transport encoding them) copies
// none.
func (dir *Directory) NearbyRefs(ctx context.Context, q geo.NearQuery) (NearbyRefsResult, error) {
	if err := checkNearQuery(q); err != nil {
		return NearbyRefsResult{}, err
	}
	if q.Limit == 0 {
		q.Limit = DefaultNearbyLimit
	}
	offices, err := dir.store.NearestOffices(ctx, q)
	within := true
	if err == nil && len(offices) == 0 && q.RadiusKm != 0 {
		q.RadiusKm, within = 0, false
		offices, err = dir.store.NearestOffices(ctx, q)
	}
	if err == nil {
		err = attach(ctx, dir, offices, refFeedback, nil)
	}
	return NearbyRefsResult{Offices: offices, WithinRadius: within}, err
}

// checkNearQuery validates the numbers of a nearby query.
func checkNearQuery(q geo.NearQuery) error {
	box := geo.WorldBox
	if q.Point.Lat >= box.MinLat && q.Point.Lat <= box.MaxLat && q.Point.Lon >= box.MinLon && q.Point.Lon <= box.MaxLon &&
		q.RadiusKm >= 0 && !math.IsInf(q.RadiusKm, 1) && q.Limit >= 0 {
		return nil // valid (NaN fails every comparison): no map of errors to build
	}
	fields := pointErrors(q.Point)
	if math.IsNaN(q.RadiusKm) || math.IsInf(q.RadiusKm, 0) || q.RadiusKm < 0 {
		fields["radius"] = []string{"must be a finite number of km, 0 or more (0: any distance)"}
	}
	if q.Limit < 0 {
		fields["limit"] = []string{fmt.Sprintf("must be 1 or more (0: %d)", DefaultNearbyLimit)}
	}
	if len(fields) > 0 {
		return &postal.ValidationError{Fields: fields}
	}
	return nil
}

// pointErrors lists what is wrong with a latitude / longitude pair.
func pointErrors(at geo.Point) map[string][]string {
	box := geo.WorldBox
	fields := map[string][]string{}
	if math.IsNaN(at.Lat) || at.Lat < box.MinLat || at.Lat > box.MaxLat {
		fields["latitude"] = []string{fmt.Sprintf("must be from %v to %v", box.MinLat, box.MaxLat)}
	}
	if math.IsNaN(at.Lon) || at.Lon < box.MinLon || at.Lon > box.MaxLon {
		fields["longitude"] = []string{fmt.Sprintf("must be from %v to %v", box.MinLon, box.MaxLon)}
	}
	return fields
}
