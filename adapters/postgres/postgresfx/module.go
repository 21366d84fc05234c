// Package postgresfx provides the Postgres stores of package postgres to an
// fx graph.
package postgresfx

import (
	"context"

	"github.com/uptrace/bun/extra/bunotel"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/adapters/riverjobs"
	"github.com/pinsight/pinsight/adapters/sqlstore"
	"github.com/pinsight/pinsight/adapters/sqlstore/sqlstorefx"
	"github.com/pinsight/pinsight/app/appfx"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/ports"
)

// Module provides the Postgres account, report and review stores, the
// *postgres.DB, the queue of analyses (River; it needs a ports.JobSettings)
// and a readiness component over the database a postgres.Config in the
// graph names (the postal directory is chosen apart: PostalStore, or an
// in-memory replica the caller builds with postgres.LoadDataset). On start
// it connects and applies pending migrations, within the
// start's context (failing the start when the database is unreachable); on
// stop it closes the pool.
var Module = fx.Module("postgres",
	fx.Provide(newDB),
	fx.Provide((*postgres.DB).Engine),
	sqlstorefx.Stores,
	fx.Provide(appfx.AsComponent(readiness)),
	fx.Provide(newJobs),
)

// newJobs provides the durable queue of analyses in the database (River).
// It is the queue of webhook deliveries too: the report store queues them
// on it (sqlstorefx) in the transactions that finish reports.
func newJobs(db *postgres.DB, s ports.JobSettings) (ports.Jobs, ports.WebhookQueue, ports.CrawlQueue, sqlstore.DeliveryEnqueuer, error) {
	j, err := postgres.NewJobs(db, riverjobs.ConfigFor(s))
	return j, j, j, j, err
}

// PostalStore provides the postal store that queries the database on
// every request (serve keeps an in-memory replica instead).
var PostalStore = fx.Provide(fx.Annotate(postgres.NewPostalStore, fx.As(new(ports.PostalStore))))

// dbParams are what newDB takes: with a TracerProvider in the graph
// (tracingfx), every query is a span, a child of the request's.
type dbParams struct {
	fx.In
	Lifecycle fx.Lifecycle
	Config    postgres.Config
	Tracer    trace.TracerProvider `optional:"true"`
}

// newDB returns the handle; the start hook connects and migrates.
func newDB(p dbParams) (*postgres.DB, error) {
	lc := p.Lifecycle
	db, err := postgres.New(p.Config)
	if err != nil {
		return nil, err
	}
	if p.Tracer != nil {
		db.DB = db.DB.WithQueryHook(bunotel.NewQueryHook(bunotel.WithTracerProvider(p.Tracer), bunotel.WithDBName("pinsight")))
	}
	lc.Append(fx.StartStopHook(func(ctx context.Context) error {
		if err := db.Connect(ctx); err != nil {
			_ = db.Close()
			return err
		}
		if _, err := postgres.Migrate(ctx, db); err != nil {
			_ = db.Close()
			return err
		}
		return nil
	}, db.Close))
	return db, nil
}

func readiness(db *postgres.DB) health.Component {
	return health.Component{Name: "database", Check: func(ctx context.Context) error { return postgres.Ping(ctx, db) }}
}
