// Package sqlitefx provides the SQLite stores of package sqlite to an fx
// graph.
package sqlitefx

import (
	"context"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/riverjobs"
	"github.com/pinsight/pinsight/adapters/sqlite"
	"github.com/pinsight/pinsight/app/appfx"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/ports"
)

// Module provides the SQLite account and report stores, the queue of
// analyses (River; it needs a ports.JobSettings) and a readiness
// component over the file a sqlite.Config in the graph names. On start it
// opens the file and applies pending migrations, within the start's
// context (failing the start when it cannot); on stop it closes the file.
var Module = fx.Module("sqlite",
	fx.Provide(newDB),
	fx.Provide(fx.Annotate(sqlite.NewAccountStore, fx.As(new(ports.AccountStore)))),
	fx.Provide(fx.Annotate(sqlite.NewReportStore, fx.As(new(ports.ReportStore)))),
	fx.Provide(appfx.AsComponent(readiness)),
	fx.Provide(newJobs),
)

// newJobs provides the durable queue of analyses in the file (River).
func newJobs(db *sqlite.DB, s ports.JobSettings) (ports.Jobs, error) {
	return sqlite.NewJobs(db, riverjobs.ConfigFor(s))
}

// newDB returns the handle; the start hook connects and migrates.
func newDB(lc fx.Lifecycle, cfg sqlite.Config) (*sqlite.DB, error) {
	db, err := sqlite.New(cfg)
	if err != nil {
		return nil, err
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
