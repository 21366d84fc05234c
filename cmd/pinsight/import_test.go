package main

import (
	"encoding/json"
	"errors"
	"os"
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

func TestImportNeedsDatabaseOrDryRun(t *testing.T) {
	t.Setenv("PINSIGHT_DATABASE_URL", "")
	if _, err := run(t, "import", "--postal-data", "nope.csv"); !errors.Is(err, errNoDatabase) {
		t.Errorf("import without --database-url: err = %v, want errNoDatabase", err)
	}
	if _, err := run(t, "import", "--postal-data", "testdata/does-not-exist.csv", "--dry-run"); err == nil {
		t.Error("import --dry-run of a missing file succeeded")
	}
}
