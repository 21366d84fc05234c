package sqlite_test

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

func TestReportStore(t *testing.T) {
	porttest.TestReportStore(t, func(t *testing.T) ports.ReportStore {
		db := openDB(t)
		withUsers(t, db, 3) // the suite's reports belong to users 1 to 3
		return sqlite.NewReportStore(db)
	})
}

// BenchmarkReportList: go test ./adapters/sqlite -run '^$' -bench ReportList -benchmem
func BenchmarkReportList(b *testing.B) {
	porttest.BenchmarkReportList(b, func(tb testing.TB) ports.ReportStore {
		db := openDB(tb)
		withUsers(tb, db, 1)
		return sqlite.NewReportStore(db)
	})
}
