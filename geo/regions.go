package geo

import "sort"

// Region is a named area, such as the boundary of one PIN code.
type Region struct {
	Key   string
	Shape MultiPolygon
}

// Regions answers which regions contain a point. Regions with the same key
// are merged. It is immutable and safe for concurrent use.
type Regions struct {
	items []regionBox // by MinLon
	maxW  float64     // widest box, in degrees of longitude
}

type regionBox struct {
	key   string
	shape MultiPolygon
	box   Box
}

// NewRegions indexes regions by bounding box.
func NewRegions(regions []Region) *Regions {
	byKey := map[string]int{}
	rs := &Regions{}
	for _, r := range regions {
		if i, ok := byKey[r.Key]; ok {
			rs.items[i].shape = append(rs.items[i].shape, r.Shape...)
			rs.items[i].box = rs.items[i].box.Union(r.Shape.Bounds())
			continue
		}
		byKey[r.Key] = len(rs.items)
		rs.items = append(rs.items, regionBox{key: r.Key, shape: append(MultiPolygon(nil), r.Shape...), box: r.Shape.Bounds()})
	}
	for i := range rs.items {
		b := &rs.items[i].box // padded so points on an edge pass the box test
		b.MinLat, b.MinLon, b.MaxLat, b.MaxLon = b.MinLat-EdgeToleranceDeg, b.MinLon-EdgeToleranceDeg, b.MaxLat+EdgeToleranceDeg, b.MaxLon+EdgeToleranceDeg
	}
	for _, it := range rs.items {
		rs.maxW = max(rs.maxW, it.box.MaxLon-it.box.MinLon)
	}
	sort.Slice(rs.items, func(i, j int) bool { return rs.items[i].box.MinLon < rs.items[j].box.MinLon })
	return rs
}

// Len is the number of distinct regions.
func (rs *Regions) Len() int { return len(rs.items) }

// Containing returns the keys of the regions containing p (on an edge
// counts), sorted. Two regions sharing a border both contain its points.
func (rs *Regions) Containing(p Point) []string {
	// Only boxes starting between p.Lon - maxW and p.Lon can reach p.
	from := sort.Search(len(rs.items), func(i int) bool { return rs.items[i].box.MinLon >= p.Lon-rs.maxW })
	var keys []string
	for _, it := range rs.items[from:] {
		if it.box.MinLon > p.Lon {
			break
		}
		if it.box.Contains(p) && it.shape.Contains(p) {
			keys = append(keys, it.key)
		}
	}
	sort.Strings(keys)
	return keys
}
