package porttest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/ports"
)

// TestReleaseStore checks a ports.ReleaseStore: newStore returns an empty
// store.
func TestReleaseStore(t *testing.T, newStore func(t *testing.T) ports.ReleaseStore) {
	t.Run("history", func(t *testing.T) { testReleaseHistory(t, newStore(t)) })
	t.Run("taken", func(t *testing.T) { testReleaseTaken(t, newStore(t)) })
}

// releaseOffices are the offices of the suite's releases: the first has
// 110001 and 110002, the second renames one office of 110001, removes
// 110002 and adds 110003.
var (
	firstOffices = []postal.ReleaseOffice{
		{Pincode: "110001", Name: "Connaught Place S.O", OfficeType: "PO", Location: &postal.Location{Latitude: 28.63, Longitude: 77.22}},
		{Pincode: "110001", Name: "Janpath B.O", OfficeType: "BO"},
		{Pincode: "110002", Name: "Gone H.O", OfficeType: "HO", Location: &postal.Location{Latitude: 28.64, Longitude: 77.23}},
	}
	secondOffices = []postal.ReleaseOffice{
		{Pincode: "110001", Name: "Connaught Place S.O", OfficeType: "PO", Location: &postal.Location{Latitude: 28.64, Longitude: 77.22}},
		{Pincode: "110001", Name: "Janpath New B.O", OfficeType: "BO"},
		{Pincode: "110003", Name: "New S.O", OfficeType: "PO"},
	}
)

func testReleaseHistory(t *testing.T, s ports.ReleaseStore) {
	ctx := context.Background()
	if _, _, found, err := s.LatestRelease(ctx); err != nil || found {
		t.Fatalf("empty store: found %v, %v; want none", found, err)
	}
	at := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	first, err := s.RecordRelease(ctx, 0, postal.Release{Version: "v1", Published: "2025-10-03", Kind: postal.SourceEmbedded,
		Offices: 3, Pincodes: 2, LoadedAt: at}, firstOffices, nil)
	if err != nil || first.Seq != 1 || first.Changes != 0 || !first.LoadedAt.Equal(at) {
		t.Fatalf("first release = %+v, %v; want seq 1, no change, loaded at %v", first, err, at)
	}
	var changes []postal.Change
	postal.Diff(firstOffices, secondOffices, func(c postal.Change) { changes = append(changes, c) })
	second, err := s.RecordRelease(ctx, 1, postal.Release{Version: "v2", Kind: postal.SourceFiles, Offices: 3, Pincodes: 2,
		LoadedAt: at.Add(time.Hour)}, secondOffices, changes)
	if err != nil || second.Seq != 2 || second.Changes != len(changes) || second.Name() != "v2" {
		t.Fatalf("second release = %+v, %v; want seq 2 with %d changes", second, err, len(changes))
	}
	latest, offices, found, err := s.LatestRelease(ctx)
	if err != nil || !found || latest != second {
		t.Fatalf("latest = %+v, %v, %v; want %+v", latest, found, err, second)
	}
	if len(offices) != len(secondOffices) || offices[0].Name != secondOffices[0].Name || *offices[0].Location != *secondOffices[0].Location || offices[1].Location != nil {
		t.Errorf("latest offices = %+v, want %+v", offices, secondOffices)
	}
	all, err := s.Releases(ctx)
	if err != nil || !slices.Equal(all, []postal.Release{first, second}) {
		t.Errorf("releases = %+v, %v; want %+v", all, err, []postal.Release{first, second})
	}
	got, total, err := s.Changes(ctx, 0, paging.Page{Number: 1, PerPage: 100})
	if err != nil || total != len(changes) || len(got) != len(changes) {
		t.Fatalf("changes since 0 = %d of %d, %v; want %d", len(got), total, err, len(changes))
	}
	for i, c := range got {
		if c.Release != 2 || c.Kind != changes[i].Kind || c.Pincode != changes[i].Pincode || c.Office != changes[i].Office ||
			c.Before != changes[i].Before || c.After != changes[i].After || c.DistanceKm != changes[i].DistanceKm ||
			(c.From == nil) != (changes[i].From == nil) || c.From != nil && (*c.From != *changes[i].From || *c.To != *changes[i].To) {
			t.Errorf("change %d = %+v, want %+v in release 2", i, c, changes[i])
		}
	}
	page2, total, err := s.Changes(ctx, 0, paging.Page{Number: 2, PerPage: 2})
	if err != nil || total != len(changes) || len(page2) != 2 || page2[0].Kind != changes[2].Kind || page2[0].Pincode != changes[2].Pincode {
		t.Errorf("page 2 of 2 = %+v (total %d), %v; want changes 3 and 4", page2, total, err)
	}
	if none, total, err := s.Changes(ctx, 2, paging.Page{}); err != nil || total != 0 || len(none) != 0 {
		t.Errorf("changes since the latest = %+v (total %d), %v; want none", none, total, err)
	}
	pins, err := s.PinChanges(ctx)
	var kinds []string
	for _, c := range pins {
		kinds = append(kinds, string(c.Kind)+" "+string(c.Pincode))
	}
	if want := []string{"pincode_removed 110002", "pincode_added 110003"}; err != nil || !slices.Equal(kinds, want) {
		t.Errorf("pin changes = %v, %v; want %v", kinds, err, want)
	}
	terminated := postal.TerminatedPins(all, pins)
	if len(terminated) != 1 || terminated["110002"].Name() != "2025-10-03" {
		t.Errorf("terminated = %+v, want 110002 last in 2025-10-03", terminated)
	}
}

func testReleaseTaken(t *testing.T, s ports.ReleaseStore) {
	ctx := context.Background()
	if _, err := s.RecordRelease(ctx, 0, postal.Release{Version: "v1"}, firstOffices, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordRelease(ctx, 0, postal.Release{Version: "v1 again"}, firstOffices, nil); !errors.Is(err, ports.ErrReleaseTaken) {
		t.Errorf("a second first release: %v, want ports.ErrReleaseTaken", err)
	}
	if _, err := s.RecordRelease(ctx, 5, postal.Release{Version: "v6"}, firstOffices, nil); !errors.Is(err, ports.ErrReleaseTaken) {
		t.Errorf("a release after one not recorded: %v, want ports.ErrReleaseTaken", err)
	}
	if all, err := s.Releases(ctx); err != nil || len(all) != 1 || all[0].Version != "v1" {
		t.Errorf("releases = %+v, %v; want v1 alone", all, err)
	}
}
