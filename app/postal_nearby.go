package app

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
	"github.com/pinsight/pinsight/ports"
)

// Bounds of the nearby and DIGIPIN-nearest queries (seed §4.3, §4.13).
const (
	NearbyMinRadiusKm     = 0.1
	NearbyMaxRadiusKm     = 100
	NearbyDefaultRadiusKm = 10
	NearbyMaxLimit        = 50
	NearbyDefaultLimit    = 5
	NearestMaxLimit       = 10
	NearestDefaultLimit   = 3
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
func (p *Postal) Nearby(ctx context.Context, at geo.Point, radiusKm float64, limit int) (NearbyResult, error) {
	if err := checkPoint(at, WorldBox); err != nil {
		return NearbyResult{}, err
	}
	if math.IsNaN(radiusKm) || radiusKm < NearbyMinRadiusKm || radiusKm > NearbyMaxRadiusKm {
		return NearbyResult{}, postal.Invalid("radius", fmt.Sprintf("must be from %v to %v km", NearbyMinRadiusKm, NearbyMaxRadiusKm))
	}
	if limit < 1 || limit > NearbyMaxLimit {
		return NearbyResult{}, postal.Invalid("limit", fmt.Sprintf("must be from 1 to %d", NearbyMaxLimit))
	}
	offices, err := p.store.NearestOffices(ctx, at, limit, radiusKm)
	if err != nil || len(offices) > 0 {
		return NearbyResult{Offices: offices, WithinRadius: true}, err
	}
	offices, err = p.store.NearestOffices(ctx, at, limit, 0)
	return NearbyResult{Offices: offices}, err
}

// How a DIGIPIN-nearest office was chosen.
const (
	MatchedBoundary = "boundary" // its PIN's boundary polygon contains the point
	MatchedDistance = "distance" // by Haversine distance alone
)

// NearestOffice is an office of a DigipinNearest answer.
type NearestOffice struct {
	postal.Nearby
	MatchedBy string // MatchedBoundary or MatchedDistance
}

// NearestResult is the answer of DigipinNearest.
type NearestResult struct {
	Digipin string // the point's code, XXX-XXX-XXXX
	Offices []NearestOffice
}

// DigipinNearest encodes at as a DIGIPIN and returns up to limit located
// offices: first those of the PINs whose boundary contains the point
// (bounds may be nil: no boundary data), nearest first, then the others by
// distance. Ties are broken by id.
func (p *Postal) DigipinNearest(ctx context.Context, at geo.Point, limit int, bounds ports.BoundaryIndex) (NearestResult, error) {
	code, err := digipin.EncodeCode(at.Lat, at.Lon)
	if err != nil {
		return NearestResult{}, err
	}
	if limit < 1 || limit > NearestMaxLimit {
		return NearestResult{}, postal.Invalid("limit", fmt.Sprintf("must be from 1 to %d", NearestMaxLimit))
	}
	res := NearestResult{Digipin: code.String()}
	if bounds != nil {
		matched, err := p.boundaryOffices(ctx, at, bounds)
		if err != nil {
			return res, err
		}
		for _, n := range matched[:min(limit, len(matched))] {
			res.Offices = append(res.Offices, NearestOffice{Nearby: n, MatchedBy: MatchedBoundary})
		}
	}
	if len(res.Offices) == limit {
		return res, nil
	}
	rest, err := p.store.NearestOffices(ctx, at, limit+len(res.Offices), 0)
	if err != nil {
		return res, err
	}
	listed := map[int64]bool{}
	for _, o := range res.Offices {
		listed[o.Office.ID] = true
	}
	for _, n := range rest {
		if len(res.Offices) < limit && !listed[n.Office.ID] {
			res.Offices = append(res.Offices, NearestOffice{Nearby: n, MatchedBy: MatchedDistance})
		}
	}
	return res, nil
}

// boundaryOffices returns the located offices of the PINs whose boundary
// contains at, nearest first (ties by id).
func (p *Postal) boundaryOffices(ctx context.Context, at geo.Point, bounds ports.BoundaryIndex) ([]postal.Nearby, error) {
	pins, err := bounds.PincodesAt(ctx, at)
	if err != nil {
		return nil, err
	}
	var out []postal.Nearby
	for _, pin := range pins {
		offices, err := p.store.OfficesByPincode(ctx, pin)
		if err != nil {
			return nil, err
		}
		for _, o := range offices {
			if o.Location != nil {
				out = append(out, postal.Nearby{Office: o, DistanceKm: geo.DistanceKm(at, geo.Point{Lat: o.Location.Latitude, Lon: o.Location.Longitude})})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.DistanceKm < b.DistanceKm || a.DistanceKm == b.DistanceKm && a.Office.ID < b.Office.ID
	})
	return out, nil
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
