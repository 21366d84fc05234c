package digipin

// EncodeCode returns the DIGIPIN of a point without allocating. It fails with
// a *RangeError (matching ErrOutOfBounds) when a coordinate is NaN, infinite
// or outside the grid; latitude is checked first, as in the official code.
func EncodeCode(lat, lon float64) (Code, error) {
	if err := CheckPoint(lat, lon); err != nil {
		return Code{}, err
	}
	return encodeIndex(axisIndex(lat, MinLat), axisIndex(lon, MinLon)), nil
}

// Encode returns the DIGIPIN of a point written XXX-XXX-XXXX.
func Encode(lat, lon float64) (string, error) {
	c, err := EncodeCode(lat, lon)
	if err != nil {
		return "", err
	}
	return c.String(), nil
}

// CheckPoint reports whether a point lies inside the grid (edges included),
// returning a *RangeError for the first offending coordinate.
func CheckPoint(lat, lon float64) error {
	if !(lat >= MinLat && lat <= MaxLat) {
		return &RangeError{Field: "latitude", Value: lat, Min: MinLat, Max: MaxLat}
	}
	if !(lon >= MinLon && lon <= MaxLon) {
		return &RangeError{Field: "longitude", Value: lon, Min: MinLon, Max: MaxLon}
	}
	return nil
}

// axisIndex is the exact integer form of the official subdivision:
// min(2^20-1, floor((v-min)·2^18/9)). The division by 9 must stay a division:
// multiplying by a rounded reciprocal disagrees on some grid lines.
func axisIndex(v, min float64) uint32 {
	i := uint32((v - min) * (1 << 18) / 9) // v >= min, so truncation is floor
	if i > maxIndex {
		return maxIndex
	}
	return i
}

// encodeIndex turns per-axis level-10 indices into symbols, two levels (a
// 4-bit nibble per axis) at a time.
func encodeIndex(ilat, ilon uint32) Code {
	var c Code
	for k := 0; k < Levels; k += 2 {
		shift := uint(bits - 4 - 2*k)
		pair := symbolPairs[(ilat>>shift&15)<<4|ilon>>shift&15]
		c[k], c[k+1] = pair[0], pair[1]
	}
	return c
}

// symbolPairs maps a latitude nibble and a longitude nibble (two levels of
// digits each) to the two symbols they spell.
var symbolPairs = func() (t [256][2]byte) {
	for i := range t {
		lat, lon := uint32(i>>4), uint32(i&15)
		t[i] = [2]byte{symbolAt(lat>>2, lon>>2), symbolAt(lat&3, lon&3)}
	}
	return t
}()

// symbolAt returns the symbol for a latitude digit (0 = south) and a
// longitude digit (0 = west) of one level.
func symbolAt(latDigit, lonDigit uint32) byte {
	return Alphabet[(3-latDigit)<<2|lonDigit]
}
