package memory_test

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/ports/porttest"
)

// stores are a new report store and account store.
func stores(testing.TB) porttest.ReportStores {
	rs := memory.NewReportStore()
	return porttest.ReportStores{Reports: rs, Accounts: memory.NewAccountStore(),
		StoredScreenshots: func(testing.TB) int { return rs.StoredScreenshots() }}
}

func TestReportStore(t *testing.T) {
	porttest.TestReportStore(t, func(t *testing.T) porttest.ReportStores { return stores(t) })
}

// BenchmarkReportList: go test ./adapters/memory -run '^$' -bench ReportList -benchmem
func BenchmarkReportList(b *testing.B) {
	porttest.BenchmarkReportList(b, stores)
}
