package tests

import (
	"context"
	"strings"
	"testing"

	"github.com/uptrace/bun/migrate"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/adapters/postgres/migrations"
	"github.com/pinsight/pinsight/domain/report"
)

// TestPostgresReportTokensMigration: reports stored before share tokens
// existed get distinct tokens the store finds, and new reports theirs.
func TestPostgresReportTokensMigration(t *testing.T) {
	ctx := context.Background()
	db, _ := newEmptyDatabase(t)
	migratePostgresUntil(t, db, "20261125000001")
	for _, q := range []string{
		`INSERT INTO users (email, created_at) VALUES ('a@example.com', now())`,
		`INSERT INTO reports (user_id, url, url_key, project, score, rating, results, privacy, generated_at, created_at, updated_at)
		 SELECT 1, 'https://example.com/' || i, 'example.com/' || i, 'example.com', 50, 'decent', '{}', i % 3, now(), now(), now()
		 FROM generate_series(1, 200) AS i`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if _, err := postgres.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	store := postgres.NewReportStore(db)
	tokens := map[string]bool{}
	for id := int64(1); id <= 200; id++ {
		r, err := store.Report(ctx, 1, id)
		if err != nil || !report.ValidShareToken(r.Token) || tokens[r.Token] {
			t.Fatalf("report %d after the migration: token %q, %v; want a share token of its own", id, r.Token, err)
		}
		tokens[r.Token] = true
		if got, err := store.ReportByToken(ctx, r.Token); err != nil || got.ID != id {
			t.Errorf("ReportByToken(report %d's token) = %d, %v", id, got.ID, err)
		}
	}
	var def string
	if err := db.QueryRowContext(ctx, `SELECT indexdef FROM pg_indexes WHERE tablename = 'reports' AND indexname = 'reports_token'`).Scan(&def); err != nil ||
		!strings.Contains(def, "UNIQUE INDEX") || !strings.HasSuffix(def, "(token)") {
		t.Errorf("index reports_token = %q, %v; want a unique index on token (lookups cost the same however many reports)", def, err)
	}
}

// migratePostgresUntil applies to db the migrations named before name.
func migratePostgresUntil(t *testing.T, db *postgres.DB, name string) {
	t.Helper()
	older := migrate.NewMigrations()
	for _, m := range migrations.Migrations.Sorted() {
		if m.Name < name {
			older.Add(m)
		}
	}
	m := migrate.NewMigrator(db.DB, older, migrate.WithMarkAppliedOnSuccess(true))
	if err := m.Init(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
}
