package digipin

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// ParseCode reads a full DIGIPIN: ten symbols, hyphens optional (anywhere),
// the spaced display form "XXX XXX XXXX" accepted, either case, surrounding
// white space ignored. It fails with a *SyntaxError (matching ErrInvalidCode).
// It does not allocate on success.
func ParseCode(s string) (Code, error) {
	var c Code
	if _, err := parseSymbols(s, c[:], Levels, Levels); err != nil {
		return Code{}, err
	}
	return c, nil
}

// Validate checks the syntax of a full code without decoding it. It returns
// nil or a *SyntaxError whose Reason names the offending characters and the
// valid set.
func Validate(s string) error {
	_, err := ParseCode(s)
	return err
}

// DecodeCode returns the centre of the code's level-10 cell.
func DecodeCode(c Code) (lat, lon float64) {
	ilat, ilon := indices(c[:])
	size := CellSize(Levels)
	return MinLat + (float64(ilat)+0.5)*size, MinLon + (float64(ilon)+0.5)*size
}

// Decode parses a code and returns the centre of its cell. The official
// implementation prints the centre with 6 decimals; rounding these values to
// 6 decimals gives exactly its output.
func Decode(s string) (lat, lon float64, err error) {
	c, err := ParseCode(s)
	if err != nil {
		return 0, 0, err
	}
	lat, lon = DecodeCode(c)
	return lat, lon, nil
}

// indices folds symbols into per-axis indices at the symbols' own level.
func indices(sym []byte) (ilat, ilon uint32) {
	for _, s := range sym {
		v := uint32(symbolIndex[s])
		ilat = ilat<<2 | (3 - v>>2)
		ilon = ilon<<2 | v&3
	}
	return ilat, ilon
}

// parseSymbols copies the upper-case symbols of s into dst and returns how
// many there were, which must lie in [minLen, maxLen].
func parseSymbols(s string, dst []byte, minLen, maxLen int) (int, error) {
	t := strings.TrimSpace(s)
	spaced := len(t) == FormattedLen && t[3] == ' ' && t[7] == ' '
	n := 0
	for i := 0; i < len(t); i++ {
		b := t[i]
		if b == '-' || spaced && (i == 3 || i == 7) {
			continue
		}
		v := symbolIndex[b]
		if v < 0 {
			return 0, syntaxError(s, t, spaced, minLen, maxLen)
		}
		if n < len(dst) {
			dst[n] = Alphabet[v]
		}
		n++
	}
	if n < minLen || n > maxLen {
		return 0, syntaxError(s, t, spaced, minLen, maxLen)
	}
	return n, nil
}

// syntaxError builds the error for a rejected input (slow path only).
func syntaxError(input, t string, spaced bool, minLen, maxLen int) error {
	e := &SyntaxError{Input: input, Want: wantLen(minLen, maxLen)}
	seen := map[rune]bool{}
	for i, r := range t {
		switch {
		case r == '-' || spaced && (i == 3 || i == 7):
		case r < utf8.RuneSelf && symbolIndex[byte(r)] >= 0:
			e.Length++
		default:
			e.Length++
			if !seen[r] {
				seen[r] = true
				e.Invalid = append(e.Invalid, r)
			}
		}
	}
	return e
}

func wantLen(minLen, maxLen int) string {
	if minLen == maxLen {
		return strconv.Itoa(minLen)
	}
	return strconv.Itoa(minLen) + " to " + strconv.Itoa(maxLen)
}
