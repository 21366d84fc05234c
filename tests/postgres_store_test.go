package tests

import (
	"context"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

func TestPostgresAccountStore(t *testing.T) {
	porttest.TestAccountStore(t, func(t *testing.T) ports.AccountStore {
		db, _ := newDatabase(t)
		return postgres.NewAccountStore(db)
	})
}

func TestPostgresMigrations(t *testing.T) {
	db, _ := newDatabase(t)
	ctx := context.Background()
	status, err := postgres.MigrationStatus(ctx, db)
	if err != nil || len(status) == 0 {
		t.Fatalf("status = %v, %v", status, err)
	}
	for _, s := range status {
		if !strings.Contains(s, " applied ") {
			t.Errorf("after Migrate: %s", s)
		}
	}
	if again, err := postgres.Migrate(ctx, db); err != nil || len(again) != 0 {
		t.Errorf("second Migrate = %v, %v; want nothing to do", again, err)
	}
	// Every migration is reversible: roll everything back, then forward again.
	for {
		names, err := postgres.Rollback(ctx, db)
		if err != nil {
			t.Fatalf("rollback: %v", err)
		}
		if len(names) == 0 {
			break
		}
	}
	var tables int
	if err := db.NewRaw("SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'bun_%' AND tablename <> 'spatial_ref_sys'").Scan(ctx, &tables); err != nil || tables != 0 {
		t.Errorf("after full rollback %d tables remain (%v)", tables, err)
	}
	if _, err := postgres.Migrate(ctx, db); err != nil {
		t.Fatalf("migrate after rollback: %v", err)
	}
	var postgis string
	if err := db.NewRaw("SELECT postgis_lib_version()").Scan(ctx, &postgis); err != nil || postgis == "" {
		t.Errorf("PostGIS not available: %v", err)
	}
}
