// Package sqlstorefx provides the shared SQL stores of package sqlstore to
// an fx graph, on the sqlstore.Engine that an engine's module (sqlitefx,
// postgresfx) provides: a store added here is wired on every SQL engine.
package sqlstorefx

import (
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/sqlstore"
	"github.com/pinsight/pinsight/ports"
)

// Stores provides the account, report, webhook, crawl, review and release
// stores. The report store (which is the webhook store too) and the crawl
// store queue the deliveries of the reports and crawls they finish when
// the graph holds the engine's queue of them (a sqlstore.DeliveryEnqueuer,
// which the engine's module provides with its job queue); without one
// they queue none.
var Stores = fx.Options(
	fx.Provide(fx.Annotate(sqlstore.NewAccountStore, fx.As(new(ports.AccountStore)))),
	fx.Provide(fx.Annotate(newReportStore, fx.As(new(ports.ReportStore)), fx.As(new(ports.WebhookStore)))),
	fx.Provide(fx.Annotate(sqlstore.NewReviewStore, fx.As(new(ports.ReviewStore)))),
	fx.Provide(fx.Annotate(newCrawlStore, fx.As(new(ports.CrawlStore)))),
	fx.Provide(fx.Annotate(sqlstore.NewReleaseStore, fx.As(new(ports.ReleaseStore)))),
)

// reportStoreParams are what the report and crawl stores take: the queue of
// deliveries is optional (it needs the job queue's settings).
type reportStoreParams struct {
	fx.In
	Engine     sqlstore.Engine
	Deliveries sqlstore.DeliveryEnqueuer `optional:"true"`
}

func newReportStore(p reportStoreParams) *sqlstore.ReportStore {
	s := sqlstore.NewReportStore(p.Engine)
	if p.Deliveries != nil {
		s = s.WithDeliveries(p.Deliveries)
	}
	return s
}

func newCrawlStore(p reportStoreParams) *sqlstore.CrawlStore {
	s := sqlstore.NewCrawlStore(p.Engine)
	if p.Deliveries != nil {
		s = s.WithDeliveries(p.Deliveries)
	}
	return s
}
