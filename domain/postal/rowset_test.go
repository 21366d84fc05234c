package postal

import "testing"

// TestRowSet checks that rows equal in the hashed fields but not in the
// others are not taken for duplicates, and that every repeat is.
func TestRowSet(t *testing.T) {
	a := RawOffice{Row: 1, Name: "Agra HO", Pincode: "282001", Delivery: "Delivery", Latitude: "27.1", Longitude: "78.0"}
	b := a
	b.Row, b.Delivery = 2, "Non Delivery" // same hash, another row
	rows := []RawOffice{a, b, a, b, b}
	rows[2].Row, rows[3].Row, rows[4].Row = 3, 4, 5
	set := newRowSet(rows, rawOfficeKey, writeRawOffice)
	want := []bool{false, false, true, true, true}
	for i, w := range want {
		if got := set.add(i); got != w {
			t.Errorf("add(row %d) = %v, want %v", i+1, got, w)
		}
	}
}
