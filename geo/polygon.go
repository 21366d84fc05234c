package geo

import "math"

// EdgeToleranceDeg is how close to an edge, in degrees, a point counts as on
// it (about 0.1 mm): enough to absorb float rounding of points taken from the
// edge itself, far below any surveyed boundary's precision.
const EdgeToleranceDeg = 1e-9

// Ring is a closed line of points; the closing point (equal to the first)
// may be given or left out. Edges are straight in longitude / latitude, as
// GeoJSON (RFC 7946) defines them; the winding order does not matter.
type Ring []Point

// Polygon is an outer ring with optional holes.
type Polygon struct {
	Outer Ring
	Holes []Ring
}

// MultiPolygon is a union of polygons.
type MultiPolygon []Polygon

// Box is a latitude / longitude bounding box, edges included.
type Box struct {
	MinLat, MinLon, MaxLat, MaxLon float64
}

// EmptyBox contains nothing; extending it by a point gives that point's box.
var EmptyBox = Box{MinLat: math.Inf(1), MinLon: math.Inf(1), MaxLat: math.Inf(-1), MaxLon: math.Inf(-1)}

// WorldBox is every valid position: latitude -90 to 90, longitude -180 to
// 180.
var WorldBox = Box{MinLat: -90, MinLon: -180, MaxLat: 90, MaxLon: 180}

// Contains reports whether p lies in the box, edges included.
func (b Box) Contains(p Point) bool {
	return p.Lat >= b.MinLat && p.Lat <= b.MaxLat && p.Lon >= b.MinLon && p.Lon <= b.MaxLon
}

// Extend returns the smallest box holding b and p.
func (b Box) Extend(p Point) Box {
	return Box{math.Min(b.MinLat, p.Lat), math.Min(b.MinLon, p.Lon), math.Max(b.MaxLat, p.Lat), math.Max(b.MaxLon, p.Lon)}
}

// Union returns the smallest box holding b and c.
func (b Box) Union(c Box) Box {
	return Box{math.Min(b.MinLat, c.MinLat), math.Min(b.MinLon, c.MinLon), math.Max(b.MaxLat, c.MaxLat), math.Max(b.MaxLon, c.MaxLon)}
}

// Bounds is the ring's bounding box.
func (r Ring) Bounds() Box {
	b := EmptyBox
	for _, p := range r {
		b = b.Extend(p)
	}
	return b
}

// Contains reports whether p lies inside the ring or on its boundary (within
// EdgeToleranceDeg of an edge).
func (r Ring) Contains(p Point) bool {
	inside, onEdge := r.locate(p)
	return inside || onEdge
}

// locate tells whether p is strictly inside the ring (even-odd rule) and
// whether it is on an edge.
func (r Ring) locate(p Point) (inside, onEdge bool) {
	n := len(r)
	if n == 0 {
		return false, false
	}
	for i := range n {
		a, b := r[i], r[(i+1)%n]
		if onSegment(p, a, b) {
			return false, true
		}
		// Crossing test on a ray towards +longitude; the half-open rule
		// on latitude counts a vertex on the ray once.
		if (a.Lat > p.Lat) != (b.Lat > p.Lat) {
			x := a.Lon + (p.Lat-a.Lat)*(b.Lon-a.Lon)/(b.Lat-a.Lat)
			if p.Lon < x {
				inside = !inside
			}
		}
	}
	return inside, false
}

// onSegment reports whether p is within EdgeToleranceDeg of segment ab.
func onSegment(p, a, b Point) bool {
	const tol = EdgeToleranceDeg
	if p.Lon < math.Min(a.Lon, b.Lon)-tol || p.Lon > math.Max(a.Lon, b.Lon)+tol ||
		p.Lat < math.Min(a.Lat, b.Lat)-tol || p.Lat > math.Max(a.Lat, b.Lat)+tol {
		return false
	}
	dx, dy := b.Lon-a.Lon, b.Lat-a.Lat
	l2 := dx*dx + dy*dy
	if l2 == 0 {
		return math.Abs(p.Lon-a.Lon) <= tol && math.Abs(p.Lat-a.Lat) <= tol
	}
	cross := (p.Lon-a.Lon)*dy - (p.Lat-a.Lat)*dx
	return cross*cross <= tol*tol*l2
}

// Contains reports whether p lies in the polygon: inside or on the outer
// ring, and not strictly inside a hole (a point on a hole's edge belongs to
// the polygon).
func (pg Polygon) Contains(p Point) bool {
	if !pg.Outer.Contains(p) {
		return false
	}
	for _, h := range pg.Holes {
		if inside, _ := h.locate(p); inside {
			return false
		}
	}
	return true
}

// Bounds is the polygon's bounding box (its outer ring's).
func (pg Polygon) Bounds() Box { return pg.Outer.Bounds() }

// Contains reports whether p lies in any of the polygons.
func (m MultiPolygon) Contains(p Point) bool {
	for _, pg := range m {
		if pg.Contains(p) {
			return true
		}
	}
	return false
}

// Bounds is the bounding box of all the polygons (EmptyBox when none).
func (m MultiPolygon) Bounds() Box {
	b := EmptyBox
	for _, pg := range m {
		b = b.Union(pg.Bounds())
	}
	return b
}
