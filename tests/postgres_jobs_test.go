package tests

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/adapters/riverjobs"
	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/ports/porttest"
)

func TestPostgresJobs(t *testing.T) {
	porttest.TestJobs(t, newPostgresJobsSubject)
}

// TestPostgresWebhooks runs the webhook store and delivery queue suite.
func TestPostgresWebhooks(t *testing.T) {
	porttest.TestWebhooks(t, newPostgresJobsSubject)
}

// newPostgresJobsSubject is a queue over a new database with users 1 and 2,
// its report store queueing deliveries on it as serve wires them.
func newPostgresJobsSubject(t *testing.T) porttest.JobsSubject {
	db, _ := newDatabase(t)
	acc := postgres.NewAccountStore(db)
	for i := 1; i <= 2; i++ {
		if _, err := acc.CreateUser(context.Background(), account.User{Email: fmt.Sprintf("u%d@example.com", i), CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	jobs, err := postgres.NewJobs(db, riverjobs.Config{Workers: 2, PollInterval: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	store := postgres.NewReportStore(db).WithDeliveries(jobs)
	return porttest.JobsSubject{Jobs: jobs, Store: store, History: store, Webhooks: store, WebhookQueue: jobs,
		Crawls: postgres.NewCrawlStore(db).WithDeliveries(jobs)}
}
