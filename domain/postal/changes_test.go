package postal_test

import (
	"slices"
	"testing"

	"github.com/pinsight/pinsight/domain/postal"
)

func office(pin, name, typ string, lat, lon float64) postal.ReleaseOffice {
	o := postal.ReleaseOffice{Pincode: postal.Pincode(pin), Name: name, OfficeType: typ}
	if lat != 0 {
		o.Location = &postal.Location{Latitude: lat, Longitude: lon}
	}
	return o
}

func TestDiff(t *testing.T) {
	old := []postal.ReleaseOffice{
		office("110001", "Connaught Place S.O", "PO", 28.63, 77.22),
		office("110001", "Janpath B.O", "BO", 28.62, 77.21),
		office("110001", "Old Market B.O", "BO", 28.61, 77.20),
		office("110002", "Gone H.O", "HO", 28.64, 77.23),
		office("110003", "Lodi Road S.O", "PO", 28.59, 77.22),
		office("110003", "Khan Market B.O", "BO", 28.60, 77.23),
		office("110004", "Rashtrapati Bhawan S.O", "PO", 28.61, 77.19),
	}
	cur := []postal.ReleaseOffice{
		office("110001", "Connaught Place SO", "PO", 28.63, 77.22), // new spelling: renamed
		office("110001", "Janpath B.O", "PO", 28.62005, 77.21),     // retyped, moved 5 m: not moved
		office("110003", "Lodi Colony S.O", "PO", 28.59, 77.22),    // renamed (same type, left over)
		office("110003", "Khan Market B.O", "BO", 28.61, 77.23),    // moved ~1.1 km
		office("110003", "Brand New B.O", "BO", 0, 0),              // added
		office("110004", "Rashtrapati Bhawan S.O", "PO", 28.61, 77.19),
		office("110005", "Karol Bagh S.O", "PO", 28.65, 77.19), // new PIN
	}
	postal.SortReleaseOffices(old)
	postal.SortReleaseOffices(cur)
	var got []postal.Change
	postal.Diff(old, cur, func(c postal.Change) { got = append(got, c) })
	type key struct {
		kind          postal.ChangeKind
		pin, office   string
		before, after string
	}
	var keys []key
	for _, c := range got {
		keys = append(keys, key{c.Kind, string(c.Pincode), c.Office, c.Before, c.After})
	}
	want := []key{
		{postal.ChangeOfficeRemoved, "110001", "Old Market B.O", "", ""},
		{postal.ChangeRenamed, "110001", "Connaught Place SO", "Connaught Place S.O", "Connaught Place SO"},
		{postal.ChangeRetyped, "110001", "Janpath B.O", "BO", "PO"},
		{postal.ChangePinRemoved, "110002", "", "", ""},
		{postal.ChangeOfficeRemoved, "110002", "Gone H.O", "", ""},
		{postal.ChangeOfficeAdded, "110003", "Brand New B.O", "", ""},
		{postal.ChangeMoved, "110003", "Khan Market B.O", "", ""},
		{postal.ChangeRenamed, "110003", "Lodi Colony S.O", "Lodi Road S.O", "Lodi Colony S.O"},
		{postal.ChangePinAdded, "110005", "", "", ""},
		{postal.ChangeOfficeAdded, "110005", "Karol Bagh S.O", "", ""},
	}
	if !slices.Equal(keys, want) {
		t.Fatalf("changes:\n got %v\nwant %v", keys, want)
	}
	for _, c := range got {
		if c.Kind == postal.ChangeMoved && (c.DistanceKm < 1 || c.DistanceKm > 1.2 || c.From.Latitude != 28.60 || c.To.Latitude != 28.61) {
			t.Errorf("moved: %+v, want about 1.1 km from 28.60 to 28.61", c)
		}
	}
	var none []postal.Change
	postal.Diff(cur, cur, func(c postal.Change) { none = append(none, c) })
	if len(none) != 0 {
		t.Errorf("a release against itself: %v, want no change", none)
	}
}

func TestTerminatedPins(t *testing.T) {
	releases := []postal.Release{{Seq: 1, Published: "2025-10-03"}, {Seq: 2, Version: "abc"}, {Seq: 3, Published: "2026-01-01"}}
	changes := []postal.ReleaseChange{
		{Release: 2, Change: postal.Change{Kind: postal.ChangePinRemoved, Pincode: "110002"}},
		{Release: 2, Change: postal.Change{Kind: postal.ChangePinRemoved, Pincode: "110009"}},
		{Release: 3, Change: postal.Change{Kind: postal.ChangePinAdded, Pincode: "110009"}},
		{Release: 3, Change: postal.Change{Kind: postal.ChangePinRemoved, Pincode: "110010"}},
	}
	got := postal.TerminatedPins(releases, changes)
	if len(got) != 2 || got["110002"].Name() != "2025-10-03" || got["110010"].Name() != "abc" {
		t.Errorf("terminated = %v, want 110002 last in 2025-10-03 and 110010 last in abc", got)
	}
}

func TestEncodeReleaseOffices(t *testing.T) {
	in := []postal.ReleaseOffice{office("110001", "Connaught Place S.O", "PO", 28.63, 77.22), office("110002", "Nowhere B.O", "BO", 0, 0)}
	out, err := postal.DecodeReleaseOffices(postal.EncodeReleaseOffices(in))
	if err != nil || len(out) != 2 || out[0].Name != in[0].Name || *out[0].Location != *in[0].Location || out[1].Location != nil || out[1].OfficeType != "BO" {
		t.Fatalf("round trip = %+v, %v; want %+v", out, err, in)
	}
	if _, err := postal.DecodeReleaseOffices([]byte("not gzip")); err == nil {
		t.Error("garbage decoded without error")
	}
}
