package digipin

// Bounds of the DIGIPIN grid in degrees; both ends are inclusive.
const (
	MinLat = 2.5
	MaxLat = 38.5
	MinLon = 63.5
	MaxLon = 99.5
)

// Levels is the number of characters in a full code: one per grid level.
const Levels = 10

// Alphabet holds the 16 valid characters in grid order (row by row, from the
// north-west corner).
const Alphabet = "FC98J327K456LMPT"

// grid is the 4×4 symbol grid used at every level: row 0 is north, column 0
// is west.
var grid = [4][4]byte{
	{'F', 'C', '9', '8'},
	{'J', '3', '2', '7'},
	{'K', '4', '5', '6'},
	{'L', 'M', 'P', 'T'},
}

// Grid returns the 4×4 symbol grid used at every level: row 0 is north,
// column 0 is west. It is a copy: the codec's own grid cannot be changed.
func Grid() [4][4]byte { return grid }

// bits is the number of bits of the per-axis integer index (two per level).
const bits = 2 * Levels

// maxIndex is the largest per-axis integer index, 2^20-1.
const maxIndex = 1<<bits - 1

// span is the side of the grid in degrees on each axis.
const span = 36.0

// symbolIndex maps an upper- or lower-case symbol byte to its position in
// Alphabet, or -1.
var symbolIndex = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := 0; i < len(Alphabet); i++ {
		c := Alphabet[i]
		t[c] = int8(i)
		if c >= 'A' && c <= 'Z' {
			t[c+'a'-'A'] = int8(i)
		}
	}
	return t
}()

// CellSize returns the side of a level-k cell in degrees (36/4^k), for k in
// 0..Levels.
func CellSize(level int) float64 {
	return span / float64(uint64(1)<<(2*uint(level)))
}
