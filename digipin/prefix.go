package digipin

import (
	"errors"
	"math"
)

// ErrInvalidLevel is returned for a level (the number of symbols of a
// prefix, its precision) outside 1 to Levels.
var ErrInvalidLevel = errors.New("digipin: level must be 1 to 10")

// EncodeCell returns the cell of the given level (1–10) holding a point:
// its code's first level symbols. It fails with ErrInvalidLevel for a level
// out of range and, like EncodeCode, with a *RangeError for a point outside
// the grid.
func EncodeCell(lat, lon float64, level int) (Cell, error) {
	if level < 1 || level > Levels {
		return Cell{}, ErrInvalidLevel
	}
	c, err := EncodeCode(lat, lon)
	if err != nil {
		return Cell{}, err
	}
	return CellOf(c, level), nil
}

// ValidatePrefix checks the syntax of a code or of a prefix of 1–10
// symbols, with the input rules of ParseCode. It returns nil or a
// *SyntaxError.
func ValidatePrefix(s string) error {
	_, err := ParseCell(s)
	return err
}

// PrefixBounds returns the box of the cell of a code or prefix of 1–10
// symbols (see Cell.Bounds), or a *SyntaxError.
func PrefixBounds(s string) (Rect, error) {
	c, err := ParseCell(s)
	if err != nil {
		return Rect{}, err
	}
	return c.Bounds(), nil
}

// Contains reports whether a point lies in the cell: whether its code
// starts with the cell's symbols. A point outside the grid (or NaN) lies in
// no cell.
func (c Cell) Contains(lat, lon float64) bool {
	if CheckPoint(lat, lon) != nil {
		return false
	}
	ilat, ilon := indices(c.sym[:c.level])
	shift := uint(bits - 2*c.level)
	return axisIndex(lat, MinLat)>>shift == ilat && axisIndex(lon, MinLon)>>shift == ilon
}

// Extent returns the cell as half-open ranges of float64 values: a point
// lies in the cell (Contains) exactly when MinLat <= lat < MaxLat and
// MinLon <= lon < MaxLon, so a database can select a cell's points by
// comparing stored float64 coordinates. It differs from Bounds by at most a
// few units in the last place: it follows the encoder's rounding on
// interior grid lines, and on the grid's north and east edges, which
// belong to the cell, its Max is the next float64 above the edge.
func (c Cell) Extent() Rect {
	ilat, ilon := indices(c.sym[:c.level])
	shift := uint(bits - 2*c.level)
	return Rect{
		MinLat: axisStart(ilat<<shift, MinLat, MaxLat), MaxLat: axisStart((ilat+1)<<shift, MinLat, MaxLat),
		MinLon: axisStart(ilon<<shift, MinLon, MaxLon), MaxLon: axisStart((ilon+1)<<shift, MinLon, MaxLon),
	}
}

// axisStart returns the least float64 v with axisIndex(v, lo) >= i, for i
// in 0..2^20: lo for 0, the next float64 above hi (the grid's far edge,
// inside the last index) for 2^20. axisIndex is monotonic in v, so a few
// steps of one ulp from the exact grid line find it.
func axisStart(i uint32, lo, hi float64) float64 {
	switch {
	case i == 0:
		return lo
	case i > maxIndex:
		return math.Nextafter(hi, math.Inf(1))
	}
	v := lo + float64(i)*span/(1<<bits)
	for axisIndex(v, lo) >= i {
		v = math.Nextafter(v, math.Inf(-1))
	}
	for axisIndex(v, lo) < i {
		v = math.Nextafter(v, math.Inf(1))
	}
	return v
}
