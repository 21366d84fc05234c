package geo

import "math"

// EarthRadiusKm is the mean Earth radius (IUGG, R1 = 6371.0088 km) used for
// every distance in this package.
const EarthRadiusKm = 6371.0088

// Point is a position in decimal degrees (WGS 84).
type Point struct {
	Lat, Lon float64
}

// DistanceKm is the great-circle (Haversine) distance between p and q on
// the mean Earth sphere, in kilometres.
func DistanceKm(p, q Point) float64 {
	const rad = math.Pi / 180
	dLat, dLon := (q.Lat-p.Lat)*rad, (q.Lon-p.Lon)*rad
	sLat, sLon := math.Sin(dLat/2), math.Sin(dLon/2)
	a := sLat*sLat + math.Cos(p.Lat*rad)*math.Cos(q.Lat*rad)*sLon*sLon
	return 2 * EarthRadiusKm * math.Asin(math.Min(1, math.Sqrt(a)))
}
