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
