package memory_test

import (
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

func TestJobs(t *testing.T) {
	porttest.TestJobs(t, func(*testing.T) porttest.JobsSubject {
		store := memory.NewReportStore()
		return porttest.JobsSubject{Jobs: memory.NewJobs(store, ports.JobSettings{Workers: 2}), Store: store, History: store}
	})
}

func TestWebhooks(t *testing.T) {
	porttest.TestWebhooks(t, func(*testing.T) porttest.JobsSubject {
		store := memory.NewReportStore()
		jobs := memory.NewJobs(store, ports.JobSettings{Workers: 2})
		return porttest.JobsSubject{Jobs: jobs, Store: store, History: store, Webhooks: store, WebhookQueue: jobs,
			Crawls: memory.NewCrawlStore(store)}
	})
}

func TestCrawlQueue(t *testing.T) {
	porttest.TestCrawlQueue(t, func(*testing.T) porttest.CrawlQueueSubject {
		reports := memory.NewReportStore()
		crawls := memory.NewCrawlStore(reports)
		jobs := memory.NewJobs(reports, ports.JobSettings{Workers: 2})
		jobs.Crawls(crawls)
		return porttest.CrawlQueueSubject{Jobs: jobs, Queue: jobs, Crawls: crawls, Accounts: memory.NewAccountStore()}
	})
}
