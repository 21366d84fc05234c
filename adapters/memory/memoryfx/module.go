// Package memoryfx provides the in-memory stores of package memory to an fx
// graph.
package memoryfx

import (
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/ports"
)

// Module provides the in-memory account, report, crawl, review and release
// stores, the in-process queue of analyses (it needs a ports.JobSettings)
// and rate limiter: the throwaway storage (memory:).
var Module = fx.Module("memory",
	fx.Provide(fx.Annotate(memory.NewAccountStore, fx.As(new(ports.AccountStore)))),
	fx.Provide(memory.NewReportStore, reportStore, webhookStore, crawlStore, newJobs),
	fx.Provide(fx.Annotate(memory.NewReviewStore, fx.As(new(ports.ReviewStore)))),
	fx.Provide(fx.Annotate(memory.NewReleaseStore, fx.As(new(ports.ReleaseStore)))),
	RateLimiter,
)

func reportStore(s *memory.ReportStore) ports.ReportStore { return s }

func webhookStore(s *memory.ReportStore) ports.WebhookStore { return s }

// crawlStore provides the crawl store, whose Idempotency-Key records are
// the report store's.
func crawlStore(s *memory.ReportStore) (*memory.CrawlStore, ports.CrawlStore) {
	cs := memory.NewCrawlStore(s)
	return cs, cs
}

// newJobs provides the in-process queue of analyses over the reports.
// It is the queue of webhook deliveries and of crawls too.
func newJobs(store *memory.ReportStore, crawls *memory.CrawlStore, s ports.JobSettings) (ports.Jobs, ports.WebhookQueue, ports.CrawlQueue) {
	j := memory.NewJobs(store, s)
	j.Crawls(crawls)
	return j, j, j
}

// RateLimiter provides the in-memory rate limiter alone: quotas kept in
// the process, whatever the storage.
var RateLimiter = fx.Provide(fx.Annotate(memory.NewRateLimiter, fx.As(new(ports.RateLimiter))))
