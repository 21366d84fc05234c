package snapshot_test

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/adapters/indiapost/snapshot"
	"github.com/pinsight/pinsight/domain/postal"
)

// TestFilesAreThePublishedOnes checks every embedded file against its
// SHA-256 as recorded when it was obtained, and that the catalogue, the
// folder and the NOTICE list the same files.
func TestFilesAreThePublishedOnes(t *testing.T) {
	names, err := fs.Glob(snapshot.FS(), "*")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != len(snapshot.Catalogue) {
		t.Errorf("embedded %q, catalogue lists %d files", names, len(snapshot.Catalogue))
	}
	for _, c := range snapshot.Catalogue {
		data, err := fs.ReadFile(snapshot.FS(), c.Name)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != c.SHA256 {
			t.Errorf("%s: sha256 %x, want %s (the published file, unchanged)", c.Name, sum, c.SHA256)
		}
		if !strings.Contains(snapshot.Notice, c.Name) || (c.Date != "" && !strings.Contains(snapshot.Notice, c.Date)) {
			t.Errorf("NOTICE does not name %s with its date %q", c.Name, c.Date)
		}
		if c.Source == "" || c.Attribution == "" || c.Role == "" {
			t.Errorf("%s: catalogue entry without a source, attribution or role: %+v", c.Name, c)
		}
	}
	if !strings.Contains(snapshot.Notice, "GODL") || !strings.Contains(snapshot.Notice, postal.LicenceURL) {
		t.Error("NOTICE does not name the licence and where to read it")
	}
}

// TestLoad loads the snapshot: every row of every file is read, and the
// dataset names the embedded release with each file's date and digest.
func TestLoad(t *testing.T) {
	res, err := indiapost.Load(snapshot.Files())
	if err != nil {
		t.Fatal(err)
	}
	src := res.Dataset.Source
	if src.Kind != postal.SourceEmbedded || src.Release != snapshot.Release || len(src.Files) != len(snapshot.Catalogue) {
		t.Fatalf("source = %+v", src)
	}
	for i, c := range snapshot.Catalogue {
		want := postal.SourceFile{Role: c.Role, Name: c.Name, Date: c.Date, Rows: c.Rows, SHA256: c.SHA256}
		if got := src.Files[i]; got != want {
			t.Errorf("file %d = %+v, want %+v", i, got, want)
		}
		if s := res.Files[i]; s.Malformed != 0 {
			t.Errorf("%s: %d malformed rows: %+v", c.Name, s.Malformed, s.Problems)
		}
	}
	if ds := res.Dataset; !ds.HasLGD || ds.Report.OfficeRows != 165627 || len(ds.States) != 36 || ds.Report.VillageRows != 41005 {
		t.Errorf("dataset: lgd %v, %d office rows, %d states, %d village rows", ds.HasLGD, ds.Report.OfficeRows, len(ds.States), ds.Report.VillageRows)
	}
}
