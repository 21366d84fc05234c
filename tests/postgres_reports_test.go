package tests

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

func TestPostgresReportStore(t *testing.T) {
	porttest.TestReportStore(t, func(t *testing.T) ports.ReportStore {
		db, _ := newDatabase(t)
		withUsers(t, db, 3) // the suite's reports belong to users 1 to 3; reports reference users
		return postgres.NewReportStore(db)
	})
}

// BenchmarkPostgresReportList is porttest.BenchmarkReportList on Postgres:
// go test ./tests -run '^$' -bench PostgresReportList -benchmem
func BenchmarkPostgresReportList(b *testing.B) {
	porttest.BenchmarkReportList(b, func(tb testing.TB) ports.ReportStore {
		db, _ := newDatabase(tb)
		withUsers(tb, db, 1)
		return postgres.NewReportStore(db)
	})
}
