package postal

import (
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
	shared := map[Location]int{}
	byPin := map[Pincode][]int{}
	for i, o := range offices {
		if o.Location != nil {
			shared[*o.Location]++
			byPin[o.Pincode] = append(byPin[o.Pincode], i)
		}
	}
	for i, o := range offices {
		if o.Location != nil && shared[*o.Location] >= SharedPointMin {
			offices[i].Quality = QualityApproximate
			r.ApproximateShared++
		}
	}
	for _, idx := range byPin {
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
