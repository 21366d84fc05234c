package digipin_test

import (
	"testing"

	"github.com/pinsight/pinsight/digipin"
)

// FuzzRoundTrip checks that the centre of a point's cell lies in the same
// cell and that the point lies inside its cell's bounds.
func FuzzRoundTrip(f *testing.F) {
	for _, p := range [][2]float64{{28.622788, 77.213033}, {38.5, 99.5}, {2.5, 63.5}, {20.5, 81.5}, {0, 0}} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, lat, lon float64) {
		c, err := digipin.EncodeCode(lat, lon)
		if err != nil {
			return
		}
		clat, clon := digipin.DecodeCode(c)
		if again, err := digipin.EncodeCode(clat, clon); err != nil || again != c {
			t.Fatalf("centre of %s re-encodes to %s, %v", c, again, err)
		}
		b := digipin.CellOf(c, digipin.Levels).Bounds()
		if lat < b.MinLat || lat > b.MaxLat || lon < b.MinLon || lon > b.MaxLon {
			t.Fatalf("(%v, %v) outside its cell %s %+v", lat, lon, c, b)
		}
	})
}

// FuzzDecode checks that arbitrary text never panics and that every accepted
// code decodes to a centre that encodes back to it.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{"39J-49L-L8T4", "39j49ll8t4", "39J 49L L8T4", "", "0x1C", "ÿÿ", "FFF-FFF-FFF-F"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		valid := digipin.Validate(s) == nil
		lat, lon, err := digipin.Decode(s)
		if (err == nil) != valid {
			t.Fatalf("Validate and Decode disagree on %q: %v", s, err)
		}
		if _, err := digipin.ParseCell(s); valid && err != nil {
			t.Fatalf("ParseCell rejects valid %q: %v", s, err)
		}
		if err != nil {
			return
		}
		c, _ := digipin.ParseCode(s)
		if again, err := digipin.EncodeCode(lat, lon); err != nil || again != c {
			t.Fatalf("Decode(%q) centre re-encodes to %s, %v", s, again, err)
		}
	})
}
