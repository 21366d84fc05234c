package sqlitefx_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/adapters/sqlite/sqlitefx"
	"github.com/pinsight/pinsight/ports"
)

// TestOpensOnStart: building the graph touches no file; starting it opens
// and migrates the database within the start's context; stopping closes it.
func TestOpensOnStart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.db")
	var db *sqlite.DB
	var accounts ports.AccountStore
	app := fx.New(fx.NopLogger, fx.Supply(sqlite.Config{URL: "sqlite:" + path}), sqlitefx.Module, fx.Populate(&db, &accounts))
	if err := app.Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the file exists before the start: %v", err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if err := app.Start(cancelled); err == nil {
		t.Fatal("a start with a cancelled context succeeded")
	}
	app = fx.New(fx.NopLogger, fx.Supply(sqlite.Config{URL: "sqlite:" + path}), sqlitefx.Module, fx.Populate(&db, &accounts))
	if err := app.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	status, err := sqlite.MigrationStatus(context.Background(), db)
	if err != nil || len(status) == 0 || strings.Contains(strings.Join(status, "\n"), "pending") {
		t.Errorf("migrations after the start: %v, %v; want all applied", status, err)
	}
	if err := app.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := sqlite.Ping(context.Background(), db); err == nil {
		t.Error("the database still answers after the stop")
	}
}

// TestStartFailsOnAMissingDirectory: the error names the directory.
func TestStartFailsOnAMissingDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "missing")
	app := fx.New(fx.NopLogger, fx.Supply(sqlite.Config{URL: "sqlite:" + filepath.Join(dir, "p.db")}), sqlitefx.Module,
		fx.Invoke(func(ports.ReportStore) {}))
	if err := app.Err(); err != nil {
		t.Fatalf("building the graph: %v (nothing should be opened yet)", err)
	}
	if err := app.Start(context.Background()); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("Start = %v, want an error naming %s", err, dir)
	}
}
