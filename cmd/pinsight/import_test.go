package main

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/indiapost/snapshot"
	"github.com/pinsight/pinsight/domain/postal"
)

// dryRun runs import --dry-run with args and decodes its report.
func dryRun(t *testing.T, args ...string) loadReport {
	t.Helper()
	out, err := run(t, append([]string{"import", "--dry-run"}, args...)...)
	if err != nil {
		t.Fatalf("import --dry-run %q: %v", args, err)
	}
	var rep loadReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("report is not one JSON object: %v\n%s", err, out)
	}
	return rep
}

// TestImportDryRun reads the embedded snapshot (no data flag: offline, no
// database) and prints its cleaning report and source.
func TestImportDryRun(t *testing.T) {
	t.Setenv("PINSIGHT_DATABASE_URL", "")
	rep := dryRun(t)
	if len(rep.Files) < 2 || rep.Cleaning.Offices == 0 || rep.Cleaning.Offices+rep.Cleaning.DuplicateRows+
		rep.Cleaning.InvalidPincodes+rep.Cleaning.MalformedRows != rep.Cleaning.OfficeRows || !rep.HasLGD || rep.Version == "" {
		t.Errorf("report = %+v", rep)
	}
	if rep.Source.Kind != postal.SourceEmbedded || rep.Source.Release != snapshot.Release || len(rep.Source.Files) != len(snapshot.Catalogue) {
		t.Errorf("source = %+v, want the embedded snapshot", rep.Source)
	}
}

// TestImportDryRunFiles reads files named by --data-dir instead.
func TestImportDryRunFiles(t *testing.T) {
	rep := dryRun(t, "--data-dir", "../../adapters/indiapost/testdata")
	src := rep.Source
	if src.Kind != postal.SourceFiles || src.Release != "" || len(src.Files) != 5 || src.Files[0].Name != "all_india_pincode_directory.csv" ||
		rep.Cleaning.OfficeRows != 68 {
		t.Errorf("source = %+v, %d office rows; want the 5 fixture files", src, rep.Cleaning.OfficeRows)
	}
}

func TestImportNeedsPostgresOrDryRun(t *testing.T) {
	t.Setenv("PINSIGHT_DATABASE_URL", "")
	if _, err := run(t, "import", "--postal-data", "nope.csv"); !errors.Is(err, errImportNeedsPostgres) {
		t.Errorf("import without --database-url: err = %v, want errImportNeedsPostgres", err)
	}
	for _, url := range []string{"sqlite:" + filepath.Join(t.TempDir(), "p.db"), "memory:"} {
		if _, err := run(t, "import", "--postal-data", "nope.csv", "--database-url", url); !errors.Is(err, errImportNeedsPostgres) {
			t.Errorf("import into %s: err = %v, want errImportNeedsPostgres", url, err)
		}
	}
	if _, err := run(t, "import", "--postal-data", "testdata/does-not-exist.csv", "--dry-run"); err == nil {
		t.Error("import --dry-run of a missing file succeeded")
	}
}

// TestImportHelpSaysWhatItIsFor: import's help shows no default storage it
// would refuse, says it is for PostgreSQL only and where the other storages
// get the dataset, and its --data-dir speaks of importing.
func TestImportHelpSaysWhatItIsFor(t *testing.T) {
	help, err := run(t, "import", "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"PostgreSQL storage only", "serve reads the dataset at start", "imported instead of the embedded snapshot"} {
		if !strings.Contains(help, want) {
			t.Errorf("import --help lacks %q:\n%s", want, help)
		}
	}
	for _, refused := range []string{defaultDatabaseURL, "served instead"} {
		if strings.Contains(help, refused) {
			t.Errorf("import --help shows %q:\n%s", refused, help)
		}
	}
	t.Setenv("PINSIGHT_DATABASE_URL", "sqlite:"+filepath.Join(t.TempDir(), "p.db"))
	_, err = run(t, "import")
	if !errors.Is(err, errImportNeedsPostgres) || !strings.Contains(err.Error(), "--data-dir") || !strings.Contains(err.Error(), "(--database-url is sqlite:)") {
		t.Errorf("import on SQLite: err = %v, want errImportNeedsPostgres naming serve --data-dir and the storage given", err)
	}
}
