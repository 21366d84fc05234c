package tests

import (
	"context"
	"testing"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/ports/porttest"
)

// postgresStores are the report and account stores of a new database,
// with the suite's counts and user deletions on its handle.
func postgresStores(tb testing.TB) porttest.ReportStores {
	db, _ := newDatabase(tb)
	return porttest.ReportStores{Reports: postgres.NewReportStore(db), Accounts: postgres.NewAccountStore(db),
		StoredScreenshots: func(t testing.TB) int {
			n, err := db.NewSelect().TableExpr("report_screenshots").Count(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return int(n)
		},
		DeleteUser: func(t testing.TB, id int64) {
			if _, err := db.ExecContext(context.Background(), "DELETE FROM users WHERE id = ?", id); err != nil {
				t.Fatal(err)
			}
		}}
}

func TestPostgresReportStore(t *testing.T) {
	porttest.TestReportStore(t, func(t *testing.T) porttest.ReportStores { return postgresStores(t) })
}

// BenchmarkPostgresReportList is porttest.BenchmarkReportList on Postgres:
// go test ./tests -run '^$' -bench PostgresReportList -benchmem
func BenchmarkPostgresReportList(b *testing.B) {
	porttest.BenchmarkReportList(b, postgresStores)
}
