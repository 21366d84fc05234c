package postal_test

import (
	"fmt"

	"github.com/pinsight/pinsight/domain/postal"
)

// ExampleDiff compares two releases' offices: one renamed, one PIN gone.
func ExampleDiff() {
	old := []postal.ReleaseOffice{
		{Pincode: "110001", Name: "Connaught Place S.O", OfficeType: "PO"},
		{Pincode: "110002", Name: "Gone H.O", OfficeType: "HO"},
	}
	cur := []postal.ReleaseOffice{
		{Pincode: "110001", Name: "Connaught Circus S.O", OfficeType: "PO"},
	}
	postal.Diff(old, cur, func(c postal.Change) {
		fmt.Printf("%s %s %q %q\n", c.Kind, c.Pincode, c.Office, c.Before)
	})
	// Output:
	// office_renamed 110001 "Connaught Circus S.O" "Connaught Place S.O"
	// pincode_removed 110002 "" ""
	// office_removed 110002 "Gone H.O" ""
}
