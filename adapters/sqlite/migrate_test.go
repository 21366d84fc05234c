package sqlite_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/adapters/sqlite/migrations"
)

func TestMigrations(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	db := openFile(t, path)
	status, err := sqlite.MigrationStatus(ctx, db)
	if err != nil || len(status) != len(migrations.Migrations.Sorted()) {
		t.Fatalf("status = %v, %v", status, err)
	}
	for _, s := range status {
		if !strings.Contains(s, " applied ") {
			t.Errorf("after Migrate: %s", s)
		}
	}
	if again, err := sqlite.Migrate(ctx, db); err != nil || len(again) != 0 {
		t.Errorf("second Migrate = %v, %v; want nothing to do", again, err)
	}
	// Every migration is reversible: roll everything back, then forward again.
	for {
		names, err := sqlite.Rollback(ctx, db)
		if err != nil {
			t.Fatalf("rollback: %v", err)
		}
		if len(names) == 0 {
			break
		}
	}
	raw := rawDB(t, path)
	var tables int
	if err := raw.QueryRow("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'bun_%' AND name NOT LIKE 'sqlite_%'").Scan(&tables); err != nil || tables != 0 {
		t.Errorf("after full rollback %d tables remain (%v)", tables, err)
	}
	if names, err := sqlite.Migrate(ctx, db); err != nil || len(names) != len(migrations.Migrations.Sorted()) {
		t.Fatalf("migrate after rollback = %v, %v", names, err)
	}
}

// TestConcurrentMigrate starts several processes' worth of handles on one
// new file at once: each migration is applied and recorded exactly once,
// and every start succeeds (no lock row to go stale either).
func TestConcurrentMigrate(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	const n = 4
	dbs := make([]*sqlite.DB, n)
	for i := range dbs {
		db, err := sqlite.Open(ctx, sqlite.Config{URL: "sqlite:" + path})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		dbs[i] = db
	}
	applied := make([][]string, n)
	var wg sync.WaitGroup
	for i, db := range dbs {
		wg.Go(func() {
			names, err := sqlite.Migrate(ctx, db)
			if err != nil {
				t.Errorf("Migrate %d = %v", i, err)
			}
			applied[i] = names
		})
	}
	wg.Wait()
	var all []string
	for _, names := range applied {
		all = append(all, names...)
	}
	slices.Sort(all)
	var want []string
	for _, m := range migrations.Migrations.Sorted() {
		want = append(want, m.Name)
	}
	if !slices.Equal(all, want) {
		t.Errorf("migrations applied by the %d handles: %v, want each of %v once", n, all, want)
	}
	var rows int
	if err := rawDB(t, path).QueryRow("SELECT count(*) FROM bun_migrations").Scan(&rows); err != nil || rows != len(want) {
		t.Errorf("bun_migrations holds %d rows (%v), want %d", rows, err, len(want))
	}
}
