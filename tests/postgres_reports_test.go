package tests

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/ports/porttest"
)

// postgresStores are the report and account stores of a new database.
func postgresStores(tb testing.TB) porttest.ReportStores {
	db, _ := newDatabase(tb)
	return porttest.ReportStores{Reports: postgres.NewReportStore(db), Accounts: postgres.NewAccountStore(db)}
}

func TestPostgresReportStore(t *testing.T) {
	porttest.TestReportStore(t, func(t *testing.T) porttest.ReportStores { return postgresStores(t) })
}

// BenchmarkPostgresReportList is porttest.BenchmarkReportList on Postgres:
// go test ./tests -run '^$' -bench PostgresReportList -benchmem
func BenchmarkPostgresReportList(b *testing.B) {
	porttest.BenchmarkReportList(b, postgresStores)
}
