package ports

import (
	"context"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
)

// BoundaryIndex knows the PIN code boundary polygons (loaded with
// --boundaries). It is a port so a PostGIS table can stand in for the
// in-memory polygons of adapters/boundary.
type BoundaryIndex interface {
	// PincodesAt returns the PINs whose boundary contains p, sorted; a
	// point on a boundary belongs to every PIN sharing it. Empty when none.
	PincodesAt(ctx context.Context, p geo.Point) ([]postal.Pincode, error)
}
