// Package digipin implements DIGIPIN, India Post's 10-character grid geocode.
//
// The bounding box (latitude 2.5–38.5, longitude 63.5–99.5) is split into a
// 4×4 grid ten times; each level contributes one character of the 16-symbol
// alphabet laid out as
//
//	F C 9 8
//	J 3 2 7
//	K 4 5 6
//	L M P T
//
// with row 0 to the north and column 0 to the west. Level k cells are 36/4^k
// degrees on a side, about 3.8 m at level 10.
//
// The codec agrees exactly with India Post's official implementation on every
// float64 in range. It uses the exact integer form of the official rule: per
// axis i = min(2^20-1, floor((v-min)·2^18/9)), and level k takes the 2-bit
// digit (i >> (20-2k)) & 3. Cells are half-open: a point exactly on an
// interior grid line belongs to the cell north / east of it, while the top
// edge (38.5) and right edge (99.5) stay inside the last row / column.
//
// Codes are written XXX-XXX-XXXX. Input is accepted with or without hyphens,
// in the spaced display form (XXX XXX XXXX), in either case and with
// surrounding white space.
//
// The package has no dependencies beyond the standard library and the hot
// paths (EncodeCode, DecodeCode, ParseCode) do not allocate.
package digipin
