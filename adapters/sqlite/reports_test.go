package sqlite_test

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/ports/porttest"
)

// stores are the report and account stores of a new database.
func stores(tb testing.TB) porttest.ReportStores {
	db := openDB(tb)
	return porttest.ReportStores{Reports: sqlite.NewReportStore(db), Accounts: sqlite.NewAccountStore(db)}
}

func TestReportStore(t *testing.T) {
	porttest.TestReportStore(t, func(t *testing.T) porttest.ReportStores { return stores(t) })
}

// BenchmarkReportList: go test ./adapters/sqlite -run '^$' -bench ReportList -benchmem
func BenchmarkReportList(b *testing.B) {
	porttest.BenchmarkReportList(b, stores)
}
