package sqlite_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"github.com/uptrace/bun/migrate"

	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/adapters/sqlite/migrations"
	"github.com/pinsight/pinsight/domain/report"
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

// migrateUntil applies the embedded migrations named before name to the
// file at path, as an older release left it.
func migrateUntil(t *testing.T, path, name string) {
	t.Helper()
	older := migrate.NewMigrations()
	for _, m := range migrations.Migrations.Sorted() {
		if m.Name < name {
			older.Add(m)
		}
	}
	db := bun.NewDB(rawDB(t, path), sqlitedialect.New())
	m := migrate.NewMigrator(db, older, migrate.WithMarkAppliedOnSuccess(true))
	if err := m.Init(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestReportTokensMigration: reports stored before share tokens existed get
// distinct tokens the store finds; their results move to the last column
// (lists never walk them), and a deleted newest report's id stays unused.
func TestReportTokensMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "p.db")
	migrateUntil(t, path, "20261125000001")
	raw := rawDB(t, path)
	for _, q := range []string{
		`INSERT INTO users (email, created_at) VALUES ('a@example.com', '2026-11-24T10:00:00.000000Z')`,
		`WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < 50)
		 INSERT INTO reports (user_id, url, url_key, project, score, rating, results, privacy, generated_at, created_at, updated_at)
		 SELECT 1, 'https://example.com/' || value, 'example.com/' || value, 'example.com', 50, 'decent', '{"seo":[]}', value % 3,
		        '2026-11-24T10:00:00.000000Z', '2026-11-24T10:00:00.000000Z', '2026-11-24T10:00:00.000000Z'
		 FROM n`,
		`DELETE FROM reports WHERE id = 50`,
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db, err := sqlite.Open(ctx, sqlite.Config{URL: "sqlite:" + path})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := sqlite.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	store := sqlite.NewReportStore(db)
	tokens := map[string]bool{}
	for id := int64(1); id < 50; id++ {
		r, err := store.Report(ctx, 1, id)
		if err != nil || !report.ValidShareToken(r.Token) || tokens[r.Token] {
			t.Fatalf("report %d after the migration: token %q, %v; want a share token of its own", id, r.Token, err)
		}
		tokens[r.Token] = true
		if got, err := store.ReportByToken(ctx, r.Token); err != nil || got.ID != id || got.URL != r.URL {
			t.Errorf("ReportByToken(report %d's token) = %d, %v", id, got.ID, err)
		}
	}
	if r, err := store.CreateReport(ctx, sampleReport(1, "https://example.com/new", time.Now())); err != nil || r.ID != 51 {
		t.Errorf("first report after the migration: id %d, %v; want 51 (50 was deleted, never reused)", r.ID, err)
	}
	var last string
	if err := raw.QueryRow(`SELECT group_concat(name, ',') FROM (SELECT name FROM pragma_table_info('reports') ORDER BY cid DESC LIMIT 2)`).Scan(&last); err != nil || last != "rendering,results" {
		t.Errorf("the last columns of reports are %q (%v), want rendering,results (the large ones)", last, err)
	}
}
