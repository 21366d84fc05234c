package httpapi_test

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi/httpapitest"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/ports/porttest"
)

// TestHostileInput sends hostile values to every operation of the full API
// over the memory stores (postal, geo, DIGIPIN, accounts, reports,
// projects, dataset) and to the public report page: never a 500, always
// the envelope on the API, a healthy server and working lists afterwards.
// tests/postgres_hostile_test.go runs the same over Postgres.
func TestHostileInput(t *testing.T) {
	reportStore := memory.NewReportStore()
	r := apitest.PostalRoutes(memory.NewPostalStore(porttest.PostalDataset()))
	r.Accounts = accounts.New(memory.NewAccountStore(), apitest.Passwords)
	r.Reports, r.Projects = reports.New(reportStore, apitest.NewFakeAnalyser(), apitest.Passwords), reports.NewProjects(reportStore)
	httpapitest.HostileRoutes(t, r)
}
