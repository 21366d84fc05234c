package postal_test

import (
	"testing"

	"github.com/pinsight/pinsight/domain/postal"
)

func fingerprintRows() ([]postal.RawOffice, []postal.RawVillage, *postal.LGD) {
	rows := []postal.RawOffice{
		{Row: 1, Circle: "Delhi Circle", Region: "DivReportingCircle", Division: "New Delhi Central Division", Name: "Baroda House SO",
			Pincode: "110001", OfficeType: "PO", Delivery: "Non Delivery", District: "NEW DELHI", State: "DELHI", Latitude: "28.6174167", Longitude: "77.2129167"},
		{Row: 2, Circle: "Delhi Circle", Region: "NA", Division: "New Delhi Central Division", Name: "Parliament House SO",
			Pincode: "110001", OfficeType: "PO", Delivery: "Delivery", District: "NA", State: "NA", Latitude: "NA", Longitude: "NA"},
	}
	villages := []postal.RawVillage{{Row: 1, StateCode: "7", StateName: "Delhi", DistrictCode: "79", DistrictName: "New Delhi",
		SubdistrictName: "Chanakyapuri", VillageCode: "1", VillageName: "Raisina", Pincode: "110001"}}
	lgd := &postal.LGD{
		States:    []postal.LGDState{{Code: 7, Name: "DELHI"}},
		Districts: []postal.LGDDistrict{{Code: 79, Name: "New Delhi", StateCode: 7}},
		Legacy:    []postal.LGDDistrict{{Code: 79, Name: "NEW DELHI", StateCode: 7}},
	}
	return rows, villages, lgd
}

// TestFingerprintCoversServedContent checks that the dataset version (the
// ETag of every data response) changes with any field a response shows, and
// only with content.
func TestFingerprintCoversServedContent(t *testing.T) {
	rows, villages, lgd := fingerprintRows()
	base := postal.Build(rows, villages, lgd).Fingerprint()
	if again := postal.Build(rows, villages, lgd).Fingerprint(); again != base || base == "" {
		t.Fatalf("same input: fingerprints %q and %q", base, again)
	}
	tests := []struct {
		change string
		edit   func(r []postal.RawOffice, v []postal.RawVillage, l *postal.LGD)
	}{
		{"delivery", func(r []postal.RawOffice, _ []postal.RawVillage, _ *postal.LGD) { r[0].Delivery = "Delivery" }},
		{"office type", func(r []postal.RawOffice, _ []postal.RawVillage, _ *postal.LGD) { r[0].OfficeType = "HO" }},
		{"division", func(r []postal.RawOffice, _ []postal.RawVillage, _ *postal.LGD) { r[0].Division = "Other Division" }},
		{"circle", func(r []postal.RawOffice, _ []postal.RawVillage, _ *postal.LGD) { r[0].Circle = "Other Circle" }},
		{"region", func(r []postal.RawOffice, _ []postal.RawVillage, _ *postal.LGD) { r[0].Region = "Other Region" }},
		{"name", func(r []postal.RawOffice, _ []postal.RawVillage, _ *postal.LGD) { r[0].Name = "Baroda House S.O" }},
		{"location", func(r []postal.RawOffice, _ []postal.RawVillage, _ *postal.LGD) { r[0].Latitude = "28.6174168" }},
		// Renamed in LGD, still found by its legacy name: same ids, new name.
		{"LGD district name", func(_ []postal.RawOffice, _ []postal.RawVillage, l *postal.LGD) {
			l.Districts[0].Name = "New Delhi Renamed"
		}},
		{"LGD state name", func(_ []postal.RawOffice, _ []postal.RawVillage, l *postal.LGD) { l.States[0].Name = "THE DELHI" }},
		{"village name", func(_ []postal.RawOffice, v []postal.RawVillage, _ *postal.LGD) { v[0].VillageName = "Raisina Hill" }},
		{"village subdistrict", func(_ []postal.RawOffice, v []postal.RawVillage, _ *postal.LGD) { v[0].SubdistrictName = "New Delhi" }},
	}
	for _, tt := range tests {
		r, v, l := fingerprintRows()
		tt.edit(r, v, l)
		if got := postal.Build(r, v, l).Fingerprint(); got == base {
			t.Errorf("changing the %s left the fingerprint %q unchanged", tt.change, got)
		}
	}
}
