package postgres

import (
	"context"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/app/appfx"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/ports"
)

// Module opens the database (failing the start when it is unreachable),
// applies pending migrations, closes it on stop, and provides the Postgres
// stores and a readiness component. It needs a Config.
var Module = fx.Module("postgres",
	fx.Provide(newDB),
	fx.Provide(fx.Annotate(NewAccountStore, fx.As(new(ports.AccountStore)))),
	fx.Provide(fx.Annotate(NewReportStore, fx.As(new(ports.ReportStore)))),
	fx.Provide(fx.Annotate(NewPostalStore, fx.As(new(ports.PostalStore)))),
	fx.Provide(appfx.AsComponent(readiness)),
)

func newDB(lc fx.Lifecycle, cfg Config) (*DB, error) {
	db, err := Open(context.Background(), cfg)
	if err != nil {
		return nil, err
	}
	lc.Append(fx.StopHook(db.Close))
	if _, err := Migrate(context.Background(), db); err != nil {
		_ = db.Close()
		return nil, err
	}
	return db, nil
}

func readiness(db *DB) health.Component {
	return health.Component{Name: "database", Check: func(ctx context.Context) error { return Ping(ctx, db) }}
}
