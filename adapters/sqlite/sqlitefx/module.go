// Package sqlitefx provides the SQLite stores of package sqlite to an fx
// graph.
package sqlitefx

import (
	"context"

	"github.com/uptrace/bun/extra/bunotel"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/riverjobs"
	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/adapters/sqlstore"
	"github.com/pinsight/pinsight/adapters/sqlstore/sqlstorefx"
	"github.com/pinsight/pinsight/app/appfx"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/ports"
)

// Module provides the SQLite account, report and review stores, the queue
// of analyses (River; it needs a ports.JobSettings) and a readiness
// component over the file a sqlite.Config in the graph names. On start it
// opens the file and applies pending migrations, within the start's
// context (failing the start when it cannot); on stop it closes the file.
var Module = fx.Module("sqlite",
	fx.Provide(newDB),
	fx.Provide((*sqlite.DB).Engine),
	sqlstorefx.Stores,
	fx.Provide(appfx.AsComponent(readiness)),
	fx.Provide(newJobs),
)

// newJobs provides the durable queue of analyses in the file (River).
// It is the queue of webhook deliveries too: the report store queues them
// on it (sqlstorefx) in the transactions that finish reports.
func newJobs(db *sqlite.DB, s ports.JobSettings) (ports.Jobs, ports.WebhookQueue, ports.CrawlQueue, sqlstore.DeliveryEnqueuer, error) {
	j, err := sqlite.NewJobs(db, riverjobs.ConfigFor(s))
	return j, j, j, j, err
}

// dbParams are what newDB takes: with a TracerProvider in the graph
// (tracingfx), every query is a span, a child of the request's.
type dbParams struct {
	fx.In
	Lifecycle fx.Lifecycle
	Config    sqlite.Config
	Tracer    trace.TracerProvider `optional:"true"`
}

// newDB returns the handle; the start hook connects and migrates.
func newDB(p dbParams) (*sqlite.DB, error) {
	lc := p.Lifecycle
	db, err := sqlite.New(p.Config)
	if err != nil {
		return nil, err
	}
	if p.Tracer != nil {
		db.AddQueryHook(bunotel.NewQueryHook(bunotel.WithTracerProvider(p.Tracer), bunotel.WithDBName("pinsight")))
	}
	lc.Append(fx.StartStopHook(func(ctx context.Context) error {
		if err := db.Connect(ctx); err != nil {
			_ = db.Close()
			return err
		}
		if _, err := sqlite.Migrate(ctx, db); err != nil {
			_ = db.Close()
			return err
		}
		return nil
	}, db.Close))
	return db, nil
}

func readiness(db *sqlite.DB) health.Component {
	return health.Component{Name: "database", Check: func(ctx context.Context) error { return sqlite.Ping(ctx, db) }}
}
