package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/app/appfx"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/ports"
)

// datasetCheckInterval is how often a replica reads the dataset generation
// anyway: the fallback for a NOTIFY lost with the listener's connection.
const datasetCheckInterval = 10 * time.Second

// postgresReplica serves the postal directory from memory, a replica of
// the one imported into Postgres: loaded at start (postal_data is not
// ready until then, so load balancers wait), reloaded and swapped in
// atomically when an import bumps the dataset generation (NOTIFY
// pinsight_dataset through the instance's listener, or the periodic check), so a postal request costs no
// query and its ETag comes from the version held in memory. On an empty
// database the first instance imports the configured files (the embedded
// snapshot by default) under the import lock; the others find them there.
func postgresReplica(data dataConfig) fx.Option {
	return fx.Options(
		fx.Provide(
			func(lc fx.Lifecycle, db *postgres.DB, log *slog.Logger) *replica {
				return newReplica(lc, db, data, log)
			},
			func(r *replica) *memory.PostalStore { return r.store },
			func(s *memory.PostalStore) ports.PostalStore { return s },
			asSubscription(func(r *replica) postgres.Subscription {
				return postgres.Subscription{Channel: postgres.DatasetChannel, Notify: func(string) { r.poke() }, Missed: r.poke}
			}),
		),
		fx.Provide(appfx.AsComponent(func(s *memory.PostalStore) health.Component { return postalComponent(s) })),
	)
}

// replica keeps a memory.PostalStore in step with the database's dataset.
type replica struct {
	db    *postgres.DB
	store *memory.PostalStore
	data  dataConfig
	log   *slog.Logger
	wake  chan struct{} // a notification (or a reconnection) asks for a check
	gen   int64         // generation served; 0: none (owned by run)
}

func newReplica(lc fx.Lifecycle, db *postgres.DB, data dataConfig, log *slog.Logger) *replica {
	r := &replica{db: db, store: memory.NewPostalStore(nil), data: data, log: log, wake: make(chan struct{}, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	lc.Append(fx.StartStopHook(func() { wg.Go(func() { r.run(ctx) }) }, func() { cancel(); wg.Wait() }))
	return r
}

// poke asks run for a generation check, without blocking.
func (r *replica) poke() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// run loads the dataset, then checks the generation on every poke and
// every datasetCheckInterval until ctx ends.
func (r *replica) run(ctx context.Context) {
	tick := time.NewTicker(datasetCheckInterval)
	defer tick.Stop()
	retry := time.NewTimer(0) // the first load at once
	defer retry.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.wake:
		case <-tick.C:
		case <-retry.C:
		}
		if err := r.sync(ctx); err != nil && ctx.Err() == nil {
			r.log.Error("postal replica: loading the dataset from the database failed; retrying", "err", err)
			retry.Reset(2 * time.Second)
		}
	}
}

// sync loads the database's dataset when its generation differs from the
// one served, importing the configured files first when there is none.
func (r *replica) sync(ctx context.Context) error {
	gen, err := postgres.DatasetGeneration(ctx, r.db)
	if err != nil || gen == r.gen {
		return err
	}
	start := time.Now()
	ds, gen, err := postgres.LoadDataset(ctx, r.db)
	if errors.Is(err, postal.ErrNoData) {
		if err := r.bootstrap(ctx); err != nil {
			return err
		}
		ds, gen, err = postgres.LoadDataset(ctx, r.db)
	}
	if err != nil {
		return err
	}
	r.store.Replace(ds)
	r.gen = gen
	debug.FreeOSMemory() // the rows read and the replaced indexes go back to the OS now
	r.log.Info("postal replica loaded from the database", "generation", gen, "version", ds.Fingerprint(),
		"offices", len(ds.Offices), "villages", len(ds.Villages), "source", ds.Source.String(), "took", time.Since(start).String())
	return nil
}

// bootstrap imports the configured files (the embedded snapshot unless
// data flags name files) into an empty database; when another instance
// imported meanwhile, it does nothing.
func (r *replica) bootstrap(ctx context.Context) error {
	res, err := indiapost.Load(r.data.files())
	if err != nil {
		return fmt.Errorf("loading postal data to import: %w", err)
	}
	st, imported, err := postgres.ImportDatasetIfEmpty(ctx, r.db, res.Dataset)
	if err != nil {
		return err
	}
	if imported {
		r.log.Info("empty database: postal data imported", "source", res.Dataset.Source.String(), "offices", st.Offices,
			"generation", st.Generation, "took", st.Duration.String())
	}
	return nil
}
