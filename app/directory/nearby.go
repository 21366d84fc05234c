package directory

import (
	"context"
	"fmt"
	"math"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
)

// Bounds of the nearby query (seed §4.3).
const (
	NearbyMinRadiusKm     = 0.1
	NearbyMaxRadiusKm     = 100
	NearbyDefaultRadiusKm = 10
	NearbyMaxLimit        = 50
	NearbyDefaultLimit    = 5
)

// NearbyResult is the answer of Nearby.
type NearbyResult struct {
	Offices []postal.Nearby // nearest first, ties by id
	// WithinRadius is false when nothing lay within the radius and Offices
	// are the closest ones at any distance instead.
	WithinRadius bool
}

// Nearby returns up to limit located offices within radiusKm of at, nearest
// first; when none lies within the radius, the closest limit offices at any
// distance, with WithinRadius false. Offices without a location are never
// returned.
func (dir *Directory) Nearby(ctx context.Context, at geo.Point, radiusKm float64, limit int) (NearbyResult, error) {
	if err := checkPoint(at, geo.WorldBox); err != nil {
		return NearbyResult{}, err
	}
	if math.IsNaN(radiusKm) || radiusKm < NearbyMinRadiusKm || radiusKm > NearbyMaxRadiusKm {
		return NearbyResult{}, postal.Invalid("radius", fmt.Sprintf("must be from %v to %v km", NearbyMinRadiusKm, NearbyMaxRadiusKm))
	}
	if limit < 1 || limit > NearbyMaxLimit {
		return NearbyResult{}, postal.Invalid("limit", fmt.Sprintf("must be from 1 to %d", NearbyMaxLimit))
	}
	offices, err := dir.store.NearestOffices(ctx, at, limit, radiusKm)
	if err != nil || len(offices) > 0 {
		return NearbyResult{Offices: offices, WithinRadius: true}, err
	}
	offices, err = dir.store.NearestOffices(ctx, at, limit, 0)
	return NearbyResult{Offices: offices}, err
}

// checkPoint validates a numeric latitude / longitude pair against box.
func checkPoint(at geo.Point, box geo.Box) error {
	fields := map[string][]string{}
	if math.IsNaN(at.Lat) || at.Lat < box.MinLat || at.Lat > box.MaxLat {
		fields["latitude"] = []string{fmt.Sprintf("must be from %v to %v", box.MinLat, box.MaxLat)}
	}
	if math.IsNaN(at.Lon) || at.Lon < box.MinLon || at.Lon > box.MaxLon {
		fields["longitude"] = []string{fmt.Sprintf("must be from %v to %v", box.MinLon, box.MaxLon)}
	}
	if len(fields) > 0 {
		return &postal.ValidationError{Fields: fields}
	}
	return nil
}
