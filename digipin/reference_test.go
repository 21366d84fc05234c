package digipin_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/pinsight/pinsight/digipin"
)

// officialEncode transcribes the official subdivision loop (floating-point
// bounds narrowed level by level) so the integer form can be compared with it
// on many points, grid lines included.
func officialEncode(lat, lon float64) digipin.Code {
	minLat, maxLat, minLon, maxLon := 2.5, 38.5, 63.5, 99.5
	var c digipin.Code
	for level := range digipin.Levels {
		latDiv := (maxLat - minLat) / 4
		lonDiv := (maxLon - minLon) / 4
		row := 3 - int(math.Floor((lat-minLat)/latDiv))
		col := int(math.Floor((lon - minLon) / lonDiv))
		row = max(0, min(row, 3))
		col = max(0, min(col, 3))
		c[level] = digipin.Grid()[row][col]
		maxLat = minLat + latDiv*float64(4-row)
		minLat = minLat + latDiv*float64(3-row)
		minLon = minLon + lonDiv*float64(col)
		maxLon = minLon + lonDiv
	}
	return c
}

func TestEncodeMatchesOfficialLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	check := func(lat, lon float64) {
		got, err := digipin.EncodeCode(lat, lon)
		if want := officialEncode(lat, lon); err != nil || got != want {
			t.Fatalf("EncodeCode(%v, %v) = %s, %v; official %s", lat, lon, got, err, want)
		}
	}
	n := 200000
	if testing.Short() {
		n = 20000
	}
	for range n {
		check(2.5+36*r.Float64(), 63.5+36*r.Float64())
	}
	// Grid lines of every level, and their float neighbours.
	for level := 1; level <= digipin.Levels; level++ {
		size := digipin.CellSize(level)
		for range 2000 {
			k := float64(r.IntN(1 << (2 * level)))
			lat, lon := 2.5+k*size, 63.5+36*r.Float64()
			for _, v := range []float64{lat, math.Nextafter(lat, 0), math.Nextafter(lat, 99)} {
				if v >= 2.5 && v <= 38.5 {
					check(v, lon)
					check(lon-61, 63.5+(v-2.5))
				}
			}
		}
	}
}
