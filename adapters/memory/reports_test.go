package memory_test

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

func TestReportStore(t *testing.T) {
	porttest.TestReportStore(t, func(*testing.T) ports.ReportStore { return memory.NewReportStore() })
}

// BenchmarkReportList: go test ./adapters/memory -run '^$' -bench ReportList -benchmem
func BenchmarkReportList(b *testing.B) {
	porttest.BenchmarkReportList(b, func(testing.TB) ports.ReportStore { return memory.NewReportStore() })
}
