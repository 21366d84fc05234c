// Package geocode answers which post offices serve a point (with its
// DIGIPIN, ranking the offices of the PIN whose boundary contains it first)
// and reads loose coordinate text.
package geocode

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/geo"
)

// DigipinBox is the DIGIPIN grid's extent.
var DigipinBox = geo.Box{MinLat: postal.MinLatitude, MinLon: postal.MinLongitude, MaxLat: postal.MaxLatitude, MaxLon: postal.MaxLongitude}

// ParsePoint reads loose coordinate text into a point inside box: a
// latitude and a longitude separated by a comma, semicolon or spaces, each a
// decimal number, degrees with a hemisphere ("28.6 N") or degree-minute-
// second text (28°36'30"N). Latitude comes first unless hemisphere letters
// say otherwise ("77.2E 28.6N"). Errors are *postal.ValidationError on the
// field "point".
func ParsePoint(s string, box geo.Box) (geo.Point, error) {
	a, b, err := splitPoint(strings.TrimSpace(s))
	if err != nil {
		return geo.Point{}, postal.Invalid("point", err.Error())
	}
	lat, latOK := parseCoordinate(a)
	lon, lonOK := parseCoordinate(b)
	if !latOK || !lonOK {
		return geo.Point{}, postal.Invalid("point", `unreadable coordinates: use "28.6, 77.2" (latitude, longitude) or DMS such as 28°36'N 77°12'E`)
	}
	ha, hb := hemisphere(a), hemisphere(b)
	switch {
	case ha == 'E' && hb == 'N':
		lat, lon = lon, lat
	case ha != 0 && ha == hb:
		return geo.Point{}, postal.Invalid("point", "both coordinates name the same axis (N/S or E/W)")
	}
	p := geo.Point{Lat: lat, Lon: lon}
	if !box.Contains(p) {
		return geo.Point{}, postal.Invalid("point", fmt.Sprintf("latitude must be from %v to %v and longitude from %v to %v", box.MinLat, box.MaxLat, box.MinLon, box.MaxLon))
	}
	return p, nil
}

// splitPoint cuts the text into its latitude and longitude parts.
func splitPoint(s string) (string, string, error) {
	if s == "" {
		return "", "", fmt.Errorf("is empty")
	}
	if i := strings.IndexAny(s, ",;"); i >= 0 {
		a, b := strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:])
		if a == "" || b == "" || strings.ContainsAny(b, ",;") {
			return "", "", fmt.Errorf("want two coordinates separated by one comma")
		}
		return a, b, nil
	}
	f := strings.Fields(s)
	if len(f) == 2 {
		return f[0], f[1], nil
	}
	for i := 0; i < len(f)-1; i++ { // "28.6 N 77.2 E": cut after the first hemisphere letter
		if hemisphere(f[i]) != 0 {
			return strings.Join(f[:i+1], " "), strings.Join(f[i+1:], " "), nil
		}
	}
	return "", "", fmt.Errorf("want two coordinates: latitude, longitude")
}

// parseCoordinate reads one coordinate with the directory's rules.
func parseCoordinate(s string) (float64, bool) {
	v, _, ok := postal.ParseCoordinate(s)
	return v, ok
}

// hemisphere is 'N' for a trailing N or S, 'E' for E or W, else 0.
func hemisphere(s string) rune {
	if s == "" {
		return 0
	}
	switch unicode.ToUpper(rune(s[len(s)-1])) {
	case 'N', 'S':
		return 'N'
	case 'E', 'W':
		return 'E'
	}
	return 0
}
