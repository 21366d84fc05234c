package digipin_test

import (
	"fmt"

	"github.com/pinsight/pinsight/digipin"
)

func ExampleEncode() {
	code, err := digipin.Encode(28.622788, 77.213033) // Dak Bhawan, New Delhi
	fmt.Println(code, err)
	// Output: 39J-49L-L8T4 <nil>
}

func ExampleDecode() {
	lat, lon, err := digipin.Decode("39j49ll8t4")
	fmt.Printf("%.6f %.6f %v\n", lat, lon, err)
	// Output: 28.622793 77.213049 <nil>
}

func ExampleValidate() {
	err := digipin.Validate("39A-49L-L8T0")
	fmt.Println(err)
	// Output: digipin: invalid characters 'A', '0': valid characters are F C 9 8 J 3 2 7 K 4 5 6 L M P T (hyphens optional)
}

func ExampleEncodeCode() {
	var buf [digipin.FormattedLen]byte
	c, _ := digipin.EncodeCode(12.9716, 77.5946)
	fmt.Printf("%s %s\n", c.AppendFormat(buf[:0]), c.Compact())
	// Output: 4P3-JK8-52C9 4P3JK852C9
}

func ExampleCell_Bounds() {
	cell, _ := digipin.ParseCell("39J")
	b := cell.Bounds()
	fmt.Printf("%v %.4f..%.4f %.4f..%.4f\n", cell, b.MinLat, b.MaxLat, b.MinLon, b.MaxLon)
	// Output: 39J 28.3750..28.9375 77.0000..77.5625
}

func ExampleEncodeCell() {
	cell, err := digipin.EncodeCell(28.622788, 77.213033, 5) // Dak Bhawan, 5 symbols
	b := cell.Bounds()
	fmt.Printf("%v %d %.5f..%.5f %.5f..%.5f %v\n", cell, cell.Level(), b.MinLat, b.MaxLat, b.MinLon, b.MaxLon, err)
	// Output: 39J-49 5 28.62109..28.65625 77.21094..77.24609 <nil>
}

func ExampleValidatePrefix() {
	fmt.Println(digipin.ValidatePrefix("39j-49"))
	fmt.Println(digipin.ValidatePrefix("39J-49L-L8T4F"))
	// Output:
	// <nil>
	// digipin: must be 1 to 10 characters excluding hyphens, got 11
}

func ExamplePrefixBounds() {
	b, err := digipin.PrefixBounds("39J4")
	fmt.Printf("%.6f..%.6f %.6f..%.6f %v\n", b.MinLat, b.MaxLat, b.MinLon, b.MaxLon, err)
	// Output: 28.515625..28.656250 77.140625..77.281250 <nil>
}

func ExampleCell_Contains() {
	cell, _ := digipin.ParseCell("39J-49")
	fmt.Println(cell.Contains(28.622788, 77.213033), cell.Contains(28.7, 77.213033))
	// Output: true false
}

func ExampleCell_Extent() {
	cell, _ := digipin.ParseCell("F") // the north-west cell: its north edge is the grid's
	e := cell.Extent()
	fmt.Println(e.MinLat, e.MaxLat > digipin.MaxLat, e.MinLon, e.MaxLon)
	// Output: 29.5 true 63.5 72.5
}
