package digipin_test

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/digipin"
	"github.com/pinsight/pinsight/digipin/digipintest"
)

func parseFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func round6(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }

func TestEncodeKnown(t *testing.T) {
	tests := []struct {
		lat, lon float64
		want     string
	}{
		{28.622788, 77.213033, "39J-49L-L8T4"}, // Dak Bhawan, New Delhi
		{12.9716, 77.5946, "4P3-JK8-52C9"},
		{38.5, 63.5, "FFF-FFF-FFFF"}, // top edge stays in row 0
		{2.5, 99.5, "TTT-TTT-TTTT"},  // right edge stays in column 3
		{20.5, 81.5, "2LL-LLL-LLLL"}, // interior lines go north / east
		{2.5, 63.5, "LLL-LLL-LLLL"},
	}
	for _, tt := range tests {
		got, err := digipin.Encode(tt.lat, tt.lon)
		if err != nil || got != tt.want {
			t.Errorf("Encode(%v, %v) = %q, %v; want %q", tt.lat, tt.lon, got, err, tt.want)
		}
	}
}

// TestEncodeReferenceVectors checks the official vectors in both the
// hyphenated form and the 2026 continuous one.
func TestEncodeReferenceVectors(t *testing.T) {
	for _, v := range digipintest.Encode {
		lat, lon := parseFloat(t, v.Lat), parseFloat(t, v.Lon)
		c, err := digipin.EncodeCode(lat, lon)
		if err != nil {
			t.Fatalf("EncodeCode(%v, %v): %v", lat, lon, err)
		}
		for _, form := range []string{v.Code, strings.ReplaceAll(v.Code, "-", "")} {
			if want, err := digipin.ParseCode(form); err != nil || c != want {
				t.Errorf("EncodeCode(%v, %v) = %s, want %s (%v)", lat, lon, c, form, err)
			}
		}
		if s, _ := digipin.Encode(lat, lon); s != v.Code {
			t.Errorf("Encode(%v, %v) = %q, want %q", lat, lon, s, v.Code)
		}
	}
}

func TestDecodeReferenceVectors(t *testing.T) {
	for _, v := range digipintest.Decode {
		for _, form := range []string{v.Code, strings.ReplaceAll(v.Code, "-", "")} {
			lat, lon, err := digipin.Decode(form)
			if err != nil {
				t.Fatalf("Decode(%q): %v", form, err)
			}
			if round6(lat) != v.Lat || round6(lon) != v.Lon {
				t.Errorf("Decode(%q) = %s, %s; want %s, %s", form, round6(lat), round6(lon), v.Lat, v.Lon)
			}
		}
		// The 6-decimal centre re-encodes to the same code.
		c, _ := digipin.EncodeCode(parseFloat(t, v.Lat), parseFloat(t, v.Lon))
		if want, _ := digipin.ParseCode(v.Code); c != want {
			t.Errorf("re-encode of %q centre = %s", v.Code, c)
		}
	}
}

func TestEncodeOutOfBounds(t *testing.T) {
	tests := []struct {
		lat, lon  float64
		wantField string
	}{
		{2.4999999, 70, "latitude"},
		{38.5000001, 70, "latitude"},
		{math.NaN(), 70, "latitude"},
		{math.Inf(1), math.NaN(), "latitude"},
		{20, 63.4999999, "longitude"},
		{20, 99.5000001, "longitude"},
		{20, math.Inf(-1), "longitude"},
		{-91, 200, "latitude"}, // latitude is checked first
	}
	for _, tt := range tests {
		_, err := digipin.Encode(tt.lat, tt.lon)
		var re *digipin.RangeError
		if !errors.As(err, &re) || re.Field != tt.wantField || !errors.Is(err, digipin.ErrOutOfBounds) {
			t.Errorf("Encode(%v, %v) error = %v; want RangeError on %s", tt.lat, tt.lon, err, tt.wantField)
		}
	}
}

func TestParseCodeForms(t *testing.T) {
	want, _ := digipin.ParseCode("39J49LL8T4")
	for _, in := range []string{"39J-49L-L8T4", "39j-49l-l8t4", " 39J49LL8T4\n", "39J 49L L8T4", "39-J49-LL8-T4"} {
		got, err := digipin.ParseCode(in)
		if err != nil || got != want {
			t.Errorf("ParseCode(%q) = %s, %v; want %s", in, got, err, want)
		}
	}
}

func TestValidateReasons(t *testing.T) {
	tests := []struct {
		in          string
		wantInvalid string
		wantLen     int
	}{
		{"39J-49L-L8T", "", 9},
		{"39J-49L-L8T44", "", 11},
		{"", "", 0},
		{"39A-49L-L8T0", "A0", 10},
		{"39J 49LL8T4", " ", 11},
		{"39J-49L-L8Tü", "ü", 10},
	}
	for _, tt := range tests {
		err := digipin.Validate(tt.in)
		var se *digipin.SyntaxError
		if !errors.As(err, &se) || !errors.Is(err, digipin.ErrInvalidCode) {
			t.Fatalf("Validate(%q) = %v; want SyntaxError", tt.in, err)
		}
		if string(se.Invalid) != tt.wantInvalid || se.Length != tt.wantLen {
			t.Errorf("Validate(%q): invalid %q len %d; want %q len %d", tt.in, string(se.Invalid), se.Length, tt.wantInvalid, tt.wantLen)
		}
		if tt.wantInvalid != "" && !containsAll(se.Reason(), "F C 9 8 J 3 2 7 K 4 5 6 L M P T") {
			t.Errorf("Validate(%q) reason %q does not name the valid set", tt.in, se.Reason())
		}
	}
}

func containsAll(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestCellBoundsAndNeighbours(t *testing.T) {
	c, err := digipin.ParseCell("39J")
	if err != nil {
		t.Fatal(err)
	}
	b := c.Bounds()
	size := digipin.CellSize(3)
	if got := b.MaxLat - b.MinLat; got != size || b.MaxLon-b.MinLon != size {
		t.Errorf("level 3 cell size = %v, want %v", got, size)
	}
	code, _ := digipin.ParseCode("39J-49L-L8T4")
	lat, lon := digipin.DecodeCode(code)
	if lat < b.MinLat || lat >= b.MaxLat || lon < b.MinLon || lon >= b.MaxLon {
		t.Errorf("centre of 39J49LL8T4 (%v,%v) outside prefix cell %+v", lat, lon, b)
	}
	if n := len(c.Neighbours()); n != 8 {
		t.Errorf("interior cell has %d neighbours, want 8", n)
	}
	corner, _ := digipin.ParseCell("F")
	got := corner.Neighbours()
	if len(got) != 3 {
		t.Fatalf("corner F neighbours = %v, want 3", got)
	}
	if got[0].String() != "C" || got[1].String() != "3" || got[2].String() != "J" {
		t.Errorf("corner F neighbours = %v %v %v, want C 3 J", got[0], got[1], got[2])
	}
	if _, err := digipin.ParseCell("39J-49L-L8T44"); err == nil {
		t.Error("ParseCell accepted 11 symbols")
	}
}

func TestAllocs(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { _, _ = digipin.EncodeCode(28.622788, 77.213033) }); n != 0 {
		t.Errorf("EncodeCode allocs = %v, want 0", n)
	}
	code, _ := digipin.ParseCode("39J49LL8T4")
	if n := testing.AllocsPerRun(100, func() { _, _ = digipin.DecodeCode(code) }); n != 0 {
		t.Errorf("DecodeCode allocs = %v, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { _, _, _ = digipin.Decode("39J-49L-L8T4") }); n != 0 {
		t.Errorf("Decode allocs = %v, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = digipin.Encode(28.622788, 77.213033) }); n > 1 {
		t.Errorf("Encode allocs = %v, want <= 1", n)
	}
}
