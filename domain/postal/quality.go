package postal

import (
	"math"
	"sort"
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

// earthRadiusKm is the mean Earth radius (IUGG), as the geo package uses.
const earthRadiusKm = 6371.0088

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
		for _, i := range idx {
			lat, lon := medianOfOthers(offices, idx, i)
			if haversineKm(offices[i].Location.Latitude, offices[i].Location.Longitude, lat, lon) > OutlierKm &&
				offices[i].Quality != QualityApproximate {
				offices[i].Quality = QualityApproximate
				r.ApproximateOutlier++
			}
		}
	}
}

// medianOfOthers is the per-axis median of the located offices of a PIN
// other than offices[self].
func medianOfOthers(offices []PostOffice, idx []int, self int) (float64, float64) {
	lats := make([]float64, 0, len(idx)-1)
	lons := make([]float64, 0, len(idx)-1)
	for _, j := range idx {
		if j != self {
			lats = append(lats, offices[j].Location.Latitude)
			lons = append(lons, offices[j].Location.Longitude)
		}
	}
	return median(lats), median(lons)
}

func median(v []float64) float64 {
	sort.Float64s(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// haversineKm is the great-circle distance on the mean Earth sphere.
func haversineKm(lat1, lon1, lat2, lon2 float64) float64 {
	const rad = math.Pi / 180
	dLat, dLon := (lat2-lat1)*rad, (lon2-lon1)*rad
	a := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * earthRadiusKm * math.Asin(math.Min(1, math.Sqrt(a)))
}
