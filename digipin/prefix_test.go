package digipin_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/digipin"
)

func TestEncodeCell(t *testing.T) {
	full, _ := digipin.Encode(28.622788, 77.213033) // 39J-49L-L8T4
	for level := 1; level <= digipin.Levels; level++ {
		c, err := digipin.EncodeCell(28.622788, 77.213033, level)
		if err != nil || c.Level() != level || !strings.HasPrefix(full, c.String()) {
			t.Errorf("EncodeCell(level %d) = %v (level %d), %v; want a prefix of %s", level, c, c.Level(), err, full)
		}
	}
	for _, level := range []int{0, -1, 11} {
		if _, err := digipin.EncodeCell(28.6, 77.2, level); !errors.Is(err, digipin.ErrInvalidLevel) {
			t.Errorf("EncodeCell(level %d) err = %v, want ErrInvalidLevel", level, err)
		}
	}
	if _, err := digipin.EncodeCell(51.5, -0.1, 5); !errors.Is(err, digipin.ErrOutOfBounds) {
		t.Errorf("EncodeCell(London) err = %v, want ErrOutOfBounds", err)
	}
}

func TestValidatePrefix(t *testing.T) {
	for _, s := range []string{"3", "39j", "39J-49", "39J-49L-L8T4", " 39j49ll8t4 "} {
		if err := digipin.ValidatePrefix(s); err != nil {
			t.Errorf("ValidatePrefix(%q) = %v, want nil", s, err)
		}
	}
	for _, s := range []string{"", "-", "39A", "39J-49L-L8T4F", "39J 49"} {
		if err := digipin.ValidatePrefix(s); !errors.Is(err, digipin.ErrInvalidCode) {
			t.Errorf("ValidatePrefix(%q) = %v, want ErrInvalidCode", s, err)
		}
	}
}

// cellPoints are points on and next to grid lines of every level (where
// rounding decides), the grid's edges and random points, for level-k cells.
func cellPoints(rng *rand.Rand) [][2]float64 {
	var pts [][2]float64
	near := func(v float64) []float64 {
		return []float64{v, math.Nextafter(v, math.Inf(1)), math.Nextafter(v, math.Inf(-1))}
	}
	for range 300 {
		level := 1 + rng.IntN(digipin.Levels)
		n := 1 << (2 * level)
		lat := digipin.MinLat + float64(rng.IntN(n+1))*digipin.CellSize(level)
		lon := digipin.MinLon + float64(rng.IntN(n+1))*digipin.CellSize(level)
		for _, a := range near(lat) {
			for _, b := range near(lon) {
				pts = append(pts, [2]float64{a, b})
			}
		}
	}
	for range 3000 {
		pts = append(pts, [2]float64{digipin.MinLat + rng.Float64()*36, digipin.MinLon + rng.Float64()*36})
	}
	return append(pts, [2]float64{digipin.MaxLat, digipin.MaxLon}, [2]float64{digipin.MinLat, digipin.MinLon}, [2]float64{math.NaN(), 80})
}

// TestCellContainsAndExtent checks that Contains is "the code starts with
// the cell's symbols" and that Extent's half-open ranges hold exactly the
// points Contains accepts, at every level, on grid lines and off them.
func TestCellContainsAndExtent(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 5))
	pts := cellPoints(rng)
	for i, p := range pts {
		code, err := digipin.EncodeCode(p[0], p[1])
		// The cell of this point and a neighbour of it, at a level that varies.
		level := 1 + i%digipin.Levels
		var cells []digipin.Cell
		if err == nil {
			own := digipin.CellOf(code, level)
			cells = append(append(cells, own), own.Neighbours()...)
		} else {
			c, _ := digipin.ParseCell("39J")
			cells = append(cells, c)
		}
		for j, c := range cells {
			want := err == nil && strings.HasPrefix(code.String(), c.String())
			if got := c.Contains(p[0], p[1]); got != want {
				t.Fatalf("%v.Contains(%v, %v) = %v, want %v (code %v)", c, p[0], p[1], got, want, code)
			}
			if j == 0 && err == nil && !want {
				t.Fatalf("point %v not in its own cell %v", p, c)
			}
			e := c.Extent()
			inExtent := p[0] >= e.MinLat && p[0] < e.MaxLat && p[1] >= e.MinLon && p[1] < e.MaxLon
			if inExtent != want {
				t.Fatalf("%v.Extent() = %+v holds (%v, %v): %v, want %v", c, e, p[0], p[1], inExtent, want)
			}
		}
	}
}

// TestCellExtentNearBounds checks that Extent stays within an ulp or so of
// Bounds, and is closed on the grid's north and east edges.
func TestCellExtentNearBounds(t *testing.T) {
	for _, s := range []string{"F", "T", "39J", "FFF-FFF-FFFF", "TTT-TTT-TTTT", "39J-49L-L8T4", "2LL-LLL-LLLL"} {
		c, _ := digipin.ParseCell(s)
		b, e := c.Bounds(), c.Extent()
		for _, pair := range [][2]float64{{b.MinLat, e.MinLat}, {b.MaxLat, e.MaxLat}, {b.MinLon, e.MinLon}, {b.MaxLon, e.MaxLon}} {
			if math.Abs(pair[0]-pair[1]) > 1e-12 {
				t.Errorf("%s: Bounds %+v and Extent %+v differ by more than 1e-12", s, b, e)
			}
		}
	}
	// A point on an interior line belongs to the cell north and east of it.
	two, _ := digipin.ParseCell("2")  // south-west corner 20.5, 81.5
	five, _ := digipin.ParseCell("5") // south of 2
	if !two.Contains(20.5, 81.5) || five.Contains(20.5, 81.5) || five.Contains(20.5, 85) || !five.Contains(math.Nextafter(20.5, 0), 85) {
		t.Errorf("the line at 20.5 N must belong to cell 2, north of it, not to cell 5")
	}
	top, _ := digipin.ParseCell("F")
	if !top.Contains(digipin.MaxLat, digipin.MinLon) || top.Extent().MaxLat <= digipin.MaxLat {
		t.Errorf("cell F must hold the grid's north-west corner: Extent %+v", top.Extent())
	}
}

func BenchmarkCellContains(b *testing.B) {
	c, _ := digipin.ParseCell("39J-49")
	for i := 0; b.Loop(); i++ {
		sinkB = c.Contains(28.622788+float64(i&1023)*1e-5, 77.213033)
	}
}

var sinkB bool
