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
		return porttest.JobsSubject{Jobs: jobs, Store: store, History: store, Webhooks: store, WebhookQueue: jobs}
	})
}
