package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/adapters/postgres"
	"github.com/pinsight/pinsight/app/appfx"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/app/releases"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/ports"
)

// datasetCheckInterval is how often a replica reads the dataset generation
// anyway: the fallback for a NOTIFY lost with the listener's connection.
const datasetCheckInterval = 10 * time.Second

// replicaFlags adds serve's settings of the Postgres directory replica.
func replicaFlags(f *pflag.FlagSet, cfg *databaseConfig) {
	f.DurationVar(&cfg.ReloadTimeout, "dataset-reload-timeout", postgres.DefaultDatasetLoadTimeout,
		"Postgres: time allowed to read the whole postal directory into memory (at start and after each import), instead of --database-statement-timeout")
	f.DurationVar(&cfg.ReloadSpread, "dataset-reload-spread", 500*time.Millisecond,
		"Postgres: after an import, each instance waits a random time up to this before reading the new directory, so that a fleet's reloads do not all hit the database at once (100 instances: see docs/SCALING.md); 0: at once")
}

// postgresReplica serves the postal directory from memory, a replica of
// the one imported into Postgres: loaded at start (postal_data is not
// ready until then, so load balancers wait), reloaded and swapped in
// atomically when an import bumps the dataset generation (NOTIFY
// pinsight_dataset through the instance's listener, or the periodic
// check), after a random delay within --dataset-reload-spread, so a postal
// request costs no query and its ETag comes from the version held in
// memory. Until a reload has read the whole new directory the previous
// one is served; a failed reload is retried with backoff. On an empty
// database the first instance imports the configured files (the embedded
// snapshot by default) under the import lock; the others find them there.
func postgresReplica(db databaseConfig, data dataConfig) fx.Option {
	return fx.Options(
		fx.Provide(
			func(lc fx.Lifecycle, pg *postgres.DB, history *releases.History, log *slog.Logger) *replica {
				r := newReplica(lc, pg, data, newReloadSchedule(db.ReloadSpread), log)
				r.history = history
				return r
			},
			func(r *replica) *memory.PostalStore { return r.store },
			func(s *memory.PostalStore) ports.PostalStore { return s },
			asSubscription(func(r *replica) postgres.Subscription {
				return postgres.Subscription{Channel: postgres.DatasetChannel, Notify: func(string) { r.poke() }, Missed: r.poke}
			}),
		),
		fx.Provide(appfx.AsComponent(func(r *replica) health.Component { return r.component() })),
	)
}

// replica keeps a memory.PostalStore in step with the database's dataset.
type replica struct {
	db    *postgres.DB
	store *memory.PostalStore
	data  dataConfig
	log   *slog.Logger
	// history records each generation loaded as a release (the import
	// that made it usually has) and gives its terminated PINs; nil: none.
	history *releases.History
	sched   *reloadSchedule              // owned by run
	wake    chan struct{}                // a notification (or a reconnection) asks for a check
	gen     int64                        // generation served; 0: none (owned by run)
	state   atomic.Pointer[replicaState] // what /readyz tells
}

// replicaState is what the replica serves, for its readiness component.
type replicaState struct {
	generation int64 // served; 0: none yet
	failing    bool  // the last load failed: a newer generation waits for a retry
}

func newReplica(lc fx.Lifecycle, db *postgres.DB, data dataConfig, sched *reloadSchedule, log *slog.Logger) *replica {
	r := &replica{db: db, store: memory.NewPostalStore(nil), data: data, log: log, sched: sched, wake: make(chan struct{}, 1)}
	r.state.Store(&replicaState{})
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

// run loads the dataset at once, then checks the generation on every poke
// and every datasetCheckInterval until ctx ends; a new generation is
// loaded after the schedule's delay, a failed load retried after its
// backoff. While a load is scheduled, checks wait for it: it reads the
// newest generation anyway.
func (r *replica) run(ctx context.Context) {
	tick := time.NewTicker(datasetCheckInterval)
	defer tick.Stop()
	load := time.NewTimer(0) // the first load at once
	defer load.Stop()
	scheduled := true
	for {
		select {
		case <-ctx.Done():
			return
		case <-load.C:
			scheduled = false
			err := r.sync(ctx)
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				wait := r.sched.failed()
				r.log.Error("postal replica: loading the dataset from the database failed; the one loaded is still served",
					"err", err, "generation", r.gen, "retry_in", wait.Round(time.Millisecond).String())
				load.Reset(wait)
				scheduled = true
			} else {
				r.sched.succeeded()
			}
			r.state.Store(&replicaState{generation: r.gen, failing: err != nil})
			continue
		case <-r.wake:
		case <-tick.C:
		}
		if scheduled {
			continue
		}
		gen, err := postgres.DatasetGeneration(ctx, r.db)
		if err != nil {
			r.log.Debug("postal replica: reading the dataset generation failed", "err", err)
			continue
		}
		if gen != r.gen {
			wait := r.sched.delay()
			r.log.Info("postal replica: a new dataset generation; loading it", "generation", gen, "served", r.gen,
				"in", wait.Round(time.Millisecond).String())
			load.Reset(wait)
			scheduled = true
		}
	}
}

// sync loads the database's dataset when its generation differs from the
// one served, importing the configured files first when there is none.
func (r *replica) sync(ctx context.Context) error {
	// The generation is read first to spare a full read of the one served.
	// That read is bounded by the serving statement timeout, which a busy
	// database can outlast: then the load goes ahead, within its own budget.
	if gen, err := postgres.DatasetGeneration(ctx, r.db); err == nil && gen == r.gen {
		return nil
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
	read := time.Since(start)
	first := r.gen == 0 // nothing served yet: the first directory comes with its terminated PINs
	if first {
		r.recordRelease(ctx, ds)
	}
	r.store.Replace(ds)
	r.gen = gen
	r.state.Store(&replicaState{generation: gen}) // with the swap: /readyz names what is served
	debug.FreeOSMemory()                          // the rows read and the replaced indexes go back to the OS now
	tuneGC(r.log)
	r.log.Info("postal replica loaded from the database", "generation", gen, "version", ds.Fingerprint(),
		"offices", len(ds.Offices), "villages", len(ds.Villages), "source", ds.Source.String(), "read", read.String(), "took", time.Since(start).String())
	// A new generation is swapped in first, then its release recorded
	// (when the import has not yet) and its terminated PINs given: a first
	// diff against the snapshot takes seconds, and the new directory must
	// not wait for it.
	if !first && r.recordRelease(ctx, ds) {
		r.store.SetTerminated(ds.Terminated)
	}
	return nil
}

// recordRelease records ds's release and sets ds.Terminated, reporting
// whether it could. A failure is logged: the directory is served all the
// same, only the release history (and so the terminated PINs) lag until
// the next import.
func (r *replica) recordRelease(ctx context.Context, ds *postal.Dataset) bool {
	if err := recordRelease(ctx, r.history, ds, r.log); err != nil {
		r.log.Error("postal replica: recording the release failed; the dataset is served without terminated PINs", "err", err)
		return false
	}
	return true
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

// component is postal_data's readiness check on Postgres: the served
// dataset's, naming the generation served, and degraded while a newer
// generation fails to load (the one loaded is still served).
func (r *replica) component() health.Component {
	c := postalComponent(r.store)
	check, describe := c.Check, c.Describe
	c.Check = func(ctx context.Context) error {
		if err := check(ctx); err != nil {
			return err
		}
		if st := r.state.Load(); st.failing {
			return health.Degraded(fmt.Sprintf("generation %d served: loading the database's newer dataset failed, retried with backoff", st.generation))
		}
		return nil
	}
	c.Describe = func(ctx context.Context) string {
		d := describe(ctx)
		if st := r.state.Load(); d != "" && st.generation != 0 {
			d += fmt.Sprintf("; generation %d", st.generation)
		}
		return d
	}
	return c
}
