package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/fx"
	"go.uber.org/fx/fxtest"
)

// TestOneServePerSQLiteFile: a second serve on the SQLite file another
// serve uses fails to start, saying who holds it and to use PostgreSQL for
// several instances; a worker, `pinsight user` and `pinsight migrate`
// still open the file beside it; once the first serve stops, a new one
// starts.
func TestOneServePerSQLiteFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.db")
	cfg := jobsServeConfig("sqlite:"+path, 0)
	first := fxtest.New(t, mustOptions(t, cfg))
	first.RequireStart()

	second := fx.New(fx.NopLogger, mustOptions(t, cfg))
	err := second.Start(context.Background())
	if err == nil {
		_ = second.Stop(context.Background())
		t.Fatal("a second serve on the same SQLite file started")
	}
	for _, want := range []string{fmt.Sprintf("another pinsight serve (pid %d) is using %s", os.Getpid(), path), "PostgreSQL", "--database-url postgres://"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("second serve's start: %v; want it to say %q", err, want)
		}
	}
	if st, err := os.Stat(path + "-serve.lock"); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("lock file: %v, %v; want it owner-only", st, err)
	}

	wopts, err := workerOptions(cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	worker := fxtest.New(t, wopts)
	worker.RequireStart()
	worker.RequireStop()
	if _, closer, err := sqliteStorage.accounts(context.Background(), cfg.Database); err != nil {
		t.Fatalf("pinsight user beside a serve: %v", err)
	} else {
		_ = closer.Close()
	}
	if _, err := sqliteStorage.migrate(context.Background(), cfg.Database, migrateStatus); err != nil {
		t.Fatalf("pinsight migrate beside a serve: %v", err)
	}

	first.RequireStop()
	third := fxtest.New(t, mustOptions(t, cfg))
	third.RequireStart()
	third.RequireStop()
}
