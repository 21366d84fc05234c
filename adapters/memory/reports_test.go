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
