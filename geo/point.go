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
	return haversineKm(p, q, cosLat(p), cosLat(q))
}

// cosLat is the cosine of p's latitude, as DistanceKm uses it.
func cosLat(p Point) float64 { return math.Cos(p.Lat * (math.Pi / 180)) }

// haversineKm is DistanceKm given the cosines of p's and q's latitudes
// (cosLat), to the last bit: the index computes each point's once.
func haversineKm(p, q Point, cosP, cosQ float64) float64 {
	const rad = math.Pi / 180
	dLat, dLon := (q.Lat-p.Lat)*rad, (q.Lon-p.Lon)*rad
	sLat, sLon := math.Sin(dLat/2), math.Sin(dLon/2)
	a := sLat*sLat + cosP*cosQ*sLon*sLon
	return 2 * EarthRadiusKm * math.Asin(math.Min(1, math.Sqrt(a)))
}

// InitialBearing is the initial great-circle bearing (forward azimuth) from
// p towards q, in degrees clockwise from true north, in [0, 360). It is 0
// when the points coincide.
func InitialBearing(p, q Point) float64 {
	const rad = math.Pi / 180
	φ1, φ2, Δλ := p.Lat*rad, q.Lat*rad, (q.Lon-p.Lon)*rad
	y := math.Sin(Δλ) * math.Cos(φ2)
	x := math.Cos(φ1)*math.Sin(φ2) - math.Sin(φ1)*math.Cos(φ2)*math.Cos(Δλ)
	deg := math.Mod(math.Atan2(y, x)/rad+360, 360)
	if deg >= 360 { // -0.0000…1 + 360 rounds to 360
		deg = 0
	}
	return deg
}
