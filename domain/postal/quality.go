package postal

import (
	"cmp"
	"slices"
	"sort"

	"github.com/pinsight/pinsight/geo"
)

// Thresholds of the "approximate" location quality.
const (
	// SharedPointMin: a point published for this many offices or more is a
	// placeholder (a district or division office copied to its branches).
	SharedPointMin = 10
	// OutlierKm: a point further than this from the median point of the
	// other located offices of its PIN is suspect.
	OutlierKm = 50.0
	// OutlierMinLocated: the outlier rule needs this many located offices
	// in the PIN, so that the median means something.
	OutlierMinLocated = 3
)

// markApproximate downgrades shared placeholder points and per-PIN outliers
// from exact or corrected to approximate.
func markApproximate(offices []PostOffice, r *CleaningReport) {
	type point struct {
		lat, lon float64
		i        int32
	}
	var located []point
	for i := range offices {
		if l := offices[i].Location; l != nil {
			located = append(located, point{l.Latitude, l.Longitude, int32(i)})
		}
	}
	// Offices sharing a point are runs of the located offices by point.
	slices.SortFunc(located, func(a, b point) int {
		return cmp.Or(cmp.Compare(a.lat, b.lat), cmp.Compare(a.lon, b.lon), cmp.Compare(a.i, b.i))
	})
	for from := 0; from < len(located); {
		to := from + 1
		for to < len(located) && located[to].lat == located[from].lat && located[to].lon == located[from].lon {
			to++
		}
		if to-from >= SharedPointMin {
			for _, p := range located[from:to] {
				offices[p.i].Quality = QualityApproximate
				r.ApproximateShared++
			}
		}
		from = to
	}
	// The located offices of a PIN are runs of them by PIN: sorted as one
	// number each, the PIN's digits above the office's position (the PINs
	// are valid here, six digits).
	byPin := make([]uint64, len(located))
	for k, p := range located {
		pin := uint64(0)
		for _, d := range []byte(offices[p.i].Pincode) {
			pin = pin*10 + uint64(d-'0')
		}
		byPin[k] = pin<<32 | uint64(p.i)
	}
	slices.Sort(byPin)
	idx := make([]int, 0, 64)
	for from := 0; from < len(byPin); {
		to := from + 1
		for to < len(byPin) && byPin[to]>>32 == byPin[from]>>32 {
			to++
		}
		idx = idx[:0]
		for _, p := range byPin[from:to] {
			idx = append(idx, int(uint32(p)))
		}
		from = to
		if len(idx) < OutlierMinLocated {
			continue
		}
		lats, lons := sortedAxes(offices, idx)
		for _, i := range idx {
			loc := offices[i].Location
			lat, lon := medianWithout(lats, loc.Latitude), medianWithout(lons, loc.Longitude)
			if geo.DistanceKm(geo.Point{Lat: loc.Latitude, Lon: loc.Longitude}, geo.Point{Lat: lat, Lon: lon}) > OutlierKm && offices[i].Quality != QualityApproximate {
				offices[i].Quality = QualityApproximate
				r.ApproximateOutlier++
			}
		}
	}
}

// sortedAxes returns the latitudes and longitudes of the located offices
// idx, each sorted.
func sortedAxes(offices []PostOffice, idx []int) (lats, lons []float64) {
	lats, lons = make([]float64, len(idx)), make([]float64, len(idx))
	for k, j := range idx {
		lats[k], lons[k] = offices[j].Location.Latitude, offices[j].Location.Longitude
	}
	sort.Float64s(lats)
	sort.Float64s(lons)
	return lats, lons
}

// medianWithout is the median of sorted with one occurrence of v removed
// (the median of the other offices), without copying.
func medianWithout(sorted []float64, v float64) float64 {
	skip := sort.SearchFloat64s(sorted, v)
	at := func(k int) float64 { // k-th element of sorted without index skip
		if k >= skip {
			k++
		}
		return sorted[k]
	}
	n := len(sorted) - 1
	if n%2 == 1 {
		return at(n / 2)
	}
	return (at(n/2-1) + at(n/2)) / 2
}
