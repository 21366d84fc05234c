package indiapost_test

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/adapters/indiapost/snapshot"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/ports/porttest"
)

// twoReleases loads the embedded snapshot and a second release written
// from it by porttest.SecondRelease into a temporary folder.
func twoReleases(tb testing.TB) (first, second *postal.Dataset, e porttest.ReleaseEdits) {
	tb.Helper()
	dir := tb.TempDir()
	err := indiapost.WriteRelease(dir, snapshot.Files(), func(rows []postal.RawOffice) []postal.RawOffice {
		var out []postal.RawOffice
		out, e = porttest.SecondRelease(rows)
		return out
	})
	if err != nil {
		tb.Fatal(err)
	}
	a, err := indiapost.Load(snapshot.Files())
	if err != nil {
		tb.Fatal(err)
	}
	b, err := indiapost.Load(indiapost.FindFiles(dir, indiapost.Files{}))
	if err != nil {
		tb.Fatal(err)
	}
	return a.Dataset, b.Dataset, e
}

// TestDiffOfWrittenRelease: the diff of the snapshot and a release written
// from it finds every edit, and nothing else.
func TestDiffOfWrittenRelease(t *testing.T) {
	a, b, e := twoReleases(t)
	counts := map[postal.ChangeKind]int{}
	var got []postal.Change
	postal.Diff(postal.ReleaseOffices(a), postal.ReleaseOffices(b), func(c postal.Change) {
		counts[c.Kind]++
		got = append(got, c)
	})
	want := map[postal.ChangeKind]int{
		postal.ChangePinRemoved: 1, postal.ChangePinAdded: 1, postal.ChangeOfficeRemoved: e.RemovedOffices + 1,
		postal.ChangeOfficeAdded: 1, postal.ChangeRenamed: 1, postal.ChangeRetyped: 1, postal.ChangeMoved: 1,
	}
	for _, k := range postal.ChangeKinds {
		if counts[k] != want[k] {
			t.Errorf("%s: %d changes, want %d (all: %+v)", k, counts[k], want[k], got)
		}
	}
	for _, c := range got {
		var wantPin postal.Pincode
		switch c.Kind {
		case postal.ChangePinRemoved:
			wantPin = e.RemovedPin
		case postal.ChangePinAdded, postal.ChangeOfficeAdded:
			wantPin = e.AddedPin
		case postal.ChangeRenamed:
			wantPin = e.RenamedPin
			if c.Before != e.RenamedFrom || c.After != e.RenamedTo {
				t.Errorf("renamed %q -> %q, want %q -> %q", c.Before, c.After, e.RenamedFrom, e.RenamedTo)
			}
		case postal.ChangeRetyped:
			wantPin = e.RetypedPin
		case postal.ChangeMoved:
			wantPin = e.MovedPin
			if c.DistanceKm < 1 || c.DistanceKm > 1.2 {
				t.Errorf("moved %.3f km, want about 1.1", c.DistanceKm)
			}
		default:
			continue
		}
		if c.Pincode != wantPin {
			t.Errorf("%s on %s, want %s", c.Kind, c.Pincode, wantPin)
		}
	}
}

// BenchmarkDiffRelease compares the whole directory with a release of it
// with a few edits: listing both releases' offices and diffing them.
func BenchmarkDiffRelease(b *testing.B) {
	first, second, _ := twoReleases(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		n := 0
		postal.Diff(postal.ReleaseOffices(first), postal.ReleaseOffices(second), func(postal.Change) { n++ })
		if n == 0 {
			b.Fatal("no change found")
		}
	}
}
