package httpapi_test

import (
	"context"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi/httpapitest"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/crawls"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/releases"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/app/reviews"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

// hostileWrites lets every hostile review write reach validation and the
// store instead of the quota.
var hostileWrites = ratelimit.Limit{Requests: 1 << 20, Window: time.Minute}

// TestHostileInput sends hostile values to every operation of the full API
// over the memory stores (postal, geo, DIGIPIN, accounts, reports,
// projects, reviews, crawls, dataset) and to the public report page: never a 500, always
// the envelope on the API, a healthy server and working lists afterwards.
// tests/postgres_hostile_test.go runs the same over Postgres.
func TestHostileInput(t *testing.T) {
	reportStore := memory.NewReportStore()
	postalStore, reviewStore := memory.NewPostalStore(porttest.PostalDataset()), memory.NewReviewStore()
	r := apitest.PostalRoutes(postalStore)
	r.Directory = directory.NewWithReviews(postalStore, reviewStore)
	r.Reviews = reviews.New(r.Directory, reviewStore, reviews.Config{Limiter: memory.NewRateLimiter(), WriteLimit: hostileWrites})
	r.Accounts = accounts.New(memory.NewAccountStore(), apitest.Passwords)
	r.Reports, r.Projects = reports.New(reportStore, apitest.NewFakeAnalyser(), apitest.Passwords), reports.NewProjects(reportStore)
	// Crawls are queued, never run (the queue is not started): no fetcher.
	crawlStore, jobs := memory.NewCrawlStore(reportStore), memory.NewJobs(reportStore, ports.JobSettings{})
	jobs.Crawls(crawlStore)
	r.Crawls = crawls.New(crawlStore, jobs, nil, apitest.Passwords, crawls.Config{Keys: reportStore, ActiveLimit: -1, DailyPages: -1})
	r.Releases = releases.New(memory.NewReleaseStore())
	if _, err := r.Releases.Load(context.Background(), porttest.PostalDataset(), nil); err != nil {
		t.Fatal(err)
	}
	httpapitest.HostileRoutes(t, r)
}
