package sqlite_test

import (
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/riverjobs"
	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/ports/porttest"
)

func TestJobs(t *testing.T) {
	porttest.TestJobs(t, func(t *testing.T) porttest.JobsSubject {
		db := openDB(t)
		withUsers(t, db, 2)
		jobs, err := sqlite.NewJobs(db, riverjobs.Config{Workers: 2, PollInterval: 200 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		store := sqlite.NewReportStore(db).WithDeliveries(jobs)
		return porttest.JobsSubject{Jobs: jobs, Store: store, History: store}
	})
}

func TestWebhooks(t *testing.T) {
	porttest.TestWebhooks(t, func(t *testing.T) porttest.JobsSubject {
		db := openDB(t)
		withUsers(t, db, 2)
		jobs, err := sqlite.NewJobs(db, riverjobs.Config{Workers: 2, PollInterval: 200 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		store := sqlite.NewReportStore(db).WithDeliveries(jobs)
		return porttest.JobsSubject{Jobs: jobs, Store: store, History: store, Webhooks: store, WebhookQueue: jobs,
			Crawls: sqlite.NewCrawlStore(db).WithDeliveries(jobs)}
	})
}

func TestCrawlQueue(t *testing.T) {
	porttest.TestCrawlQueue(t, func(t *testing.T) porttest.CrawlQueueSubject {
		db := openDB(t)
		jobs, err := sqlite.NewJobs(db, riverjobs.Config{Workers: 2, PollInterval: 200 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		return porttest.CrawlQueueSubject{Jobs: jobs, Queue: jobs, Crawls: sqlite.NewCrawlStore(db), Accounts: sqlite.NewAccountStore(db)}
	})
}
