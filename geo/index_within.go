package geo

// AppendWithin appends to dst the items of the indexed points at most
// radiusKm from q (DistanceKm, as NearestWithin measures it), in no
// particular order, and returns the extended slice: a range query whose
// cost grows with the points found, not with their order. A radius <= 0
// finds nothing.
func (ix *Index) AppendWithin(dst []int, q Point, radiusKm float64) []int {
	if !(radiusKm > 0) || len(ix.nodes) == 0 {
		return dst
	}
	r := ranger{q: q, v: unitVector(q), cosQ: cosLat(q), radius: radiusKm, bound: chordBound(radiusKm), out: dst}
	r.visit(ix.nodes)
	return r.out
}

// ranger is the state of one AppendWithin query.
type ranger struct {
	q      Point
	v      [3]float64
	cosQ   float64 // cosLat(q)
	radius float64 // km
	bound  float64 // squared chord of radius, with slack
	out    []int
}

func (r *ranger) visit(nodes []kdPoint) {
	if len(nodes) <= leafSize {
		for i := range nodes {
			r.consider(&nodes[i])
		}
		return
	}
	mid := len(nodes) / 2
	n := &nodes[mid]
	d := r.v[n.axis] - n.v[n.axis]
	r.consider(n)
	// The split plane is n's coordinate: a side lies entirely beyond the
	// bound when the plane does.
	if d <= 0 || d*d <= r.bound {
		r.visit(nodes[:mid])
	}
	if d >= 0 || d*d <= r.bound {
		r.visit(nodes[mid+1:])
	}
}

func (r *ranger) consider(n *kdPoint) {
	dx, dy, dz := r.v[0]-n.v[0], r.v[1]-n.v[1], r.v[2]-n.v[2]
	if dx*dx+dy*dy+dz*dz <= r.bound && haversineKm(r.q, n.p, r.cosQ, n.cosLat) <= r.radius {
		r.out = append(r.out, int(n.item))
	}
}
