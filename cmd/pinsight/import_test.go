package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestImportDryRun(t *testing.T) {
	const dir = "../../../shared/data"
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("real dataset not found at %s: %v", dir, err)
	}
	out, err := run(t, "import", "--data-dir", dir, "--dry-run")
	if err != nil {
		t.Fatalf("import --dry-run: %v", err)
	}
	var rep loadReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("report is not one JSON object: %v\n%s", err, out)
	}
	if len(rep.Files) < 2 || rep.Cleaning.Offices == 0 || rep.Cleaning.Offices+rep.Cleaning.DuplicateRows+
		rep.Cleaning.InvalidPincodes+rep.Cleaning.MalformedRows != rep.Cleaning.OfficeRows || !rep.HasLGD || rep.Version == "" {
		t.Errorf("report = %+v", rep)
	}
}

func TestImportNeedsPostgresOrDryRun(t *testing.T) {
	t.Setenv("PINSIGHT_DATABASE_URL", "")
	if _, err := run(t, "import", "--postal-data", "nope.csv"); !errors.Is(err, errEmptyDatabaseURL) {
		t.Errorf("import with an empty --database-url: err = %v, want errEmptyDatabaseURL", err)
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
