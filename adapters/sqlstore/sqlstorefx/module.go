// Package sqlstorefx provides the shared SQL stores of package sqlstore to
// an fx graph, on the sqlstore.Engine that an engine's module (sqlitefx,
// postgresfx) provides: a store added here is wired on every SQL engine.
package sqlstorefx

import (
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/sqlstore"
	"github.com/pinsight/pinsight/ports"
)

// Stores provides the account, report, webhook, crawl and review stores.
var Stores = fx.Options(
	fx.Provide(fx.Annotate(sqlstore.NewAccountStore, fx.As(new(ports.AccountStore)))),
	fx.Provide(fx.Annotate(sqlstore.NewReportStore, fx.As(new(ports.ReportStore)))),
	fx.Provide(fx.Annotate(sqlstore.NewReportStore, fx.As(new(ports.WebhookStore)))),
	fx.Provide(fx.Annotate(sqlstore.NewReviewStore, fx.As(new(ports.ReviewStore)))),
	fx.Provide(fx.Annotate(sqlstore.NewCrawlStore, fx.As(new(ports.CrawlStore)))),
)
