package geocode

import (
	"context"
	"fmt"
	"sort"

	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
	"github.com/pinsight/pinsight/ports"
)

// DefaultNearestLimit is how many offices Nearest returns when asked for 0.
const DefaultNearestLimit = 3

// Geocoder answers which post offices serve a point: its DIGIPIN, the
// offices of the PIN whose boundary contains it, then the nearest others.
type Geocoder struct {
	store  ports.PostalStore
	bounds ports.BoundaryIndex
}

// New returns a geocoder over store; bounds may be nil (no boundary data:
// offices are chosen by distance alone).
func New(store ports.PostalStore, bounds ports.BoundaryIndex) *Geocoder {
	return &Geocoder{store: store, bounds: bounds}
}

// HasBoundaries reports whether boundary polygons rank the offices.
func (g *Geocoder) HasBoundaries() bool { return g.bounds != nil }

// How a DIGIPIN-nearest office was chosen.
const (
	MatchedBoundary = "boundary" // its PIN's boundary polygon contains the point
	MatchedDistance = "distance" // by Haversine distance alone
)

// NearestOffice is an office of a Nearest answer.
type NearestOffice struct {
	postal.Nearby
	MatchedBy string // MatchedBoundary or MatchedDistance
}

// NearestResult is the answer of Nearest.
type NearestResult struct {
	Digipin string // the point's code, XXX-XXX-XXXX
	Offices []NearestOffice
}

// Nearest encodes at as a DIGIPIN and returns up to limit located offices
// (DefaultNearestLimit when 0): first those of the PINs whose boundary
// contains the point, nearest first, then the others by distance. Ties are
// broken by id. A point outside the DIGIPIN grid is a *digipin.RangeError,
// a negative limit a *postal.ValidationError; any limit beyond is accepted
// (limits are the transport's).
func (g *Geocoder) Nearest(ctx context.Context, at geo.Point, limit int) (NearestResult, error) {
	code, err := digipin.EncodeCode(at.Lat, at.Lon)
	if err != nil {
		return NearestResult{}, err
	}
	switch {
	case limit < 0:
		return NearestResult{}, postal.Invalid("limit", fmt.Sprintf("must be 1 or more (0: %d)", DefaultNearestLimit))
	case limit == 0:
		limit = DefaultNearestLimit
	}
	res := NearestResult{Digipin: code.String()}
	if g.bounds != nil {
		matched, err := g.boundaryOffices(ctx, at)
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
	rest, err := g.store.NearestOffices(ctx, geo.NearQuery{Point: at, Limit: limit + len(res.Offices)})
	if err != nil {
		return res, err
	}
	listed := map[int64]bool{}
	for _, o := range res.Offices {
		listed[o.Office.ID] = true
	}
	for i := range rest {
		if n := &rest[i]; len(res.Offices) < limit && !listed[n.Office.ID] {
			res.Offices = append(res.Offices, NearestOffice{Nearby: n.Nearby(), MatchedBy: MatchedDistance})
		}
	}
	return res, nil
}

// boundaryOffices returns the located offices of the PINs whose boundary
// contains at, nearest first (ties by id).
func (g *Geocoder) boundaryOffices(ctx context.Context, at geo.Point) ([]postal.Nearby, error) {
	pins, err := g.bounds.PincodesAt(ctx, at)
	if err != nil {
		return nil, err
	}
	var out []postal.Nearby
	for _, pin := range pins {
		offices, err := g.store.OfficesByPincode(ctx, pin)
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
