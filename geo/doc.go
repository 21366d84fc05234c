// Package geo holds points on the Earth, great-circle (Haversine) distance,
// a static spatial index for k-nearest and radius queries, and polygons with
// point-in-polygon. It uses the standard library only.
package geo
