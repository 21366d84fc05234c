package digipin

// Rect is an axis-aligned box in degrees.
type Rect struct {
	MinLat, MinLon, MaxLat, MaxLon float64
}

// Center returns the middle of the box.
func (r Rect) Center() (lat, lon float64) {
	return (r.MinLat + r.MaxLat) / 2, (r.MinLon + r.MaxLon) / 2
}

// GridBounds returns the box of the whole DIGIPIN grid (MinLat, MinLon,
// MaxLat, MaxLon).
func GridBounds() Rect { return Rect{MinLat: MinLat, MinLon: MinLon, MaxLat: MaxLat, MaxLon: MaxLon} }

// Cell is a grid cell at some level: a full code (level 10) or a prefix.
type Cell struct {
	sym   [Levels]byte
	level int
}

// ParseCell reads a code or a prefix of 1–10 symbols, with the same input
// rules as ParseCode.
func ParseCell(s string) (Cell, error) {
	var c Cell
	n, err := parseSymbols(s, c.sym[:], 1, Levels)
	if err != nil {
		return Cell{}, err
	}
	c.level = n
	return c, nil
}

// CellOf returns the cell of a code at a coarser level (1–10).
func CellOf(c Code, level int) Cell {
	level = min(max(level, 1), Levels)
	var cell Cell
	copy(cell.sym[:], c[:level])
	cell.level = level
	return cell
}

// Level is the number of symbols of the cell (1–10).
func (c Cell) Level() int { return c.level }

// String returns the cell's symbols in XXX-XXX-XXXX grouping.
func (c Cell) String() string { return FormatPrefix(string(c.sym[:c.level])) }

// Bounds returns the cell's box. Interior edges are half-open (a point on the
// north or east edge of a cell belongs to the neighbour there; its south and
// west edges are its own), except on the grid's own north and east edges,
// which belong to the cell. Extent gives the same set as exact float ranges.
func (c Cell) Bounds() Rect {
	ilat, ilon := indices(c.sym[:c.level])
	size := CellSize(c.level)
	r := Rect{MinLat: MinLat + float64(ilat)*size, MinLon: MinLon + float64(ilon)*size}
	r.MaxLat, r.MaxLon = r.MinLat+size, r.MinLon+size
	return r
}

// Neighbours returns the up to 8 cells around c at the same level, clockwise
// from the north; cells beyond the grid's edge are left out.
func (c Cell) Neighbours() []Cell {
	ilat, ilon := indices(c.sym[:c.level])
	limit := int64(1) << (2 * uint(c.level))
	out := make([]Cell, 0, 8)
	for _, d := range [8][2]int64{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}} {
		la, lo := int64(ilat)+d[0], int64(ilon)+d[1]
		if la < 0 || lo < 0 || la >= limit || lo >= limit {
			continue
		}
		out = append(out, cellAt(uint32(la), uint32(lo), c.level))
	}
	return out
}

// cellAt builds the level-k cell with the given per-axis indices.
func cellAt(ilat, ilon uint32, level int) Cell {
	c := Cell{level: level}
	for k := range level {
		shift := uint(2 * (level - 1 - k))
		c.sym[k] = symbolAt(ilat>>shift&3, ilon>>shift&3)
	}
	return c
}
