package tests

import (
	"context"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/ports/porttest"
)

// TestPostgresImportOutlastsStatementTimeout: an import through a handle
// whose serving statement timeout is far below what the load and its
// planner statistics take succeeds; neither is bounded by it, so an import
// committed is never answered as failed (a loaded machine took ANALYZE
// past the 10 s default).
func TestPostgresImportOutlastsStatementTimeout(t *testing.T) {
	skipWithoutDocker(t)
	ctx := context.Background()
	_, url := newDatabase(t)
	db, err := postgres.Open(ctx, postgres.Config{URL: url, StatementTimeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := postgres.ImportDataset(ctx, db, porttest.PostalDataset()); err != nil {
		t.Fatalf("import with a 1 ms statement timeout: %v", err)
	}
}
