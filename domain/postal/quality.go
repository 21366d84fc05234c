package postal

import (
	"cmp"
	"slices"
	"sort"
	"strings"

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
	var located []int
	for i := range offices {
		if offices[i].Location != nil {
			located = append(located, i)
		}
	}
	// Offices sharing a point are runs of the located offices by point.
	slices.SortFunc(located, func(a, b int) int {
		la, lb := offices[a].Location, offices[b].Location
		return cmp.Or(cmp.Compare(la.Latitude, lb.Latitude), cmp.Compare(la.Longitude, lb.Longitude), a-b)
	})
	for from := 0; from < len(located); {
		at := *offices[located[from]].Location
		to := from + 1
		for to < len(located) && *offices[located[to]].Location == at {
			to++
		}
		if to-from >= SharedPointMin {
			for _, i := range located[from:to] {
				offices[i].Quality = QualityApproximate
				r.ApproximateShared++
			}
		}
		from = to
	}
	// The located offices of a PIN are runs of them by PIN.
	slices.SortFunc(located, func(a, b int) int {
		return cmp.Or(strings.Compare(string(offices[a].Pincode), string(offices[b].Pincode)), a-b)
	})
	for from := 0; from < len(located); {
		to := from + 1
		for to < len(located) && offices[located[to]].Pincode == offices[located[from]].Pincode {
			to++
		}
		idx := located[from:to]
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
