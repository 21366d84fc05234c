package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"syscall"
	"time"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/adapters/indiapost/snapshot"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/appfx"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/app/releases"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/ports"
)

// memoryPostal provides the in-memory postal store, loaded before the
// server starts (a bad file fails the start) from the configured files, or
// from the embedded snapshot when no data flag is given. SIGHUP re-reads the
// files (a reload that fails keeps the dataset served); the snapshot is
// compiled in and needs no reload.
func memoryPostal(data dataConfig) fx.Option {
	return fx.Options(
		fx.Provide(
			func(lc fx.Lifecycle, history *releases.History, log *slog.Logger) (*memory.PostalStore, error) {
				store := memory.NewPostalStore(nil)
				start := time.Now()
				res, err := readPostal(data)
				if err != nil {
					return nil, err
				}
				// Recorded and served once the start has migrated the
				// database (its hooks run before this one).
				lc.Append(fx.StartHook(func(ctx context.Context) error {
					err := servePostal(ctx, store, history, res, start, log)
					res = nil
					return err
				}))
				stop := reloadOnHangup(store, history, data, log)
				lc.Append(fx.StopHook(stop))
				return store, nil
			},
			func(s *memory.PostalStore) ports.PostalStore { return s },
		),
		fx.Provide(appfx.AsComponent(func(s *memory.PostalStore) health.Component { return postalComponent(s) })),
	)
}

// loadPostal reads the files and serves them (servePostal).
func loadPostal(store *memory.PostalStore, history *releases.History, data dataConfig, log *slog.Logger) error {
	start := time.Now()
	res, err := readPostal(data)
	if err != nil {
		return err
	}
	return servePostal(context.Background(), store, history, res, start, log)
}

// readPostal reads and cleans the configured files; without any, it
// decodes the embedded snapshot's dataset (the same as cleaning its files,
// faster).
func readPostal(data dataConfig) (*indiapost.Result, error) {
	if !data.configured() {
		start := time.Now()
		ds, err := snapshot.Dataset()
		if err != nil {
			return nil, fmt.Errorf("loading postal data: %w", err)
		}
		return &indiapost.Result{Dataset: ds, Duration: time.Since(start)}, nil
	}
	res, err := indiapost.Load(data.files())
	if err != nil {
		return nil, fmt.Errorf("loading postal data: %w", err)
	}
	return res, nil
}

// servePostal records the files read in the release history (when there
// is one: a new release with its changes against the one it replaces) and
// takes the terminated PINs from it while it indexes the dataset, then
// swaps it in (not when recording failed); start is when reading began.
func servePostal(ctx context.Context, store *memory.PostalStore, history *releases.History, res *indiapost.Result, start time.Time, log *slog.Logger) error {
	runtime.GC() // the published rows are garbage: collect them before the indexes grow (a lower peak)
	err := store.ReplaceAfter(res.Dataset, func() error { return recordRelease(ctx, history, res.Dataset, log) })
	if err != nil {
		return err
	}
	debug.FreeOSMemory() // hand the raw rows and parse buffers back to the OS now, not at the next GC cycles
	tuneGC(log)
	r := res.Dataset.Report
	log.Info("postal data loaded", "source", res.Dataset.Source.String(), "read_and_clean", res.Duration.String(),
		"total_with_indexes", time.Since(start).String(), "offices", r.Offices, "pincodes", r.Pincodes,
		"states", len(res.Dataset.States), "districts", len(res.Dataset.Districts), "villages", r.Villages,
		"lgd_codes", res.Dataset.HasLGD, "files", res.Files, "cleaning", r)
	return nil
}

// reloadOnHangup re-reads the configured files on every SIGHUP until stop
// is called. Serving the embedded snapshot, it only logs that there is
// nothing to re-read (and keeps SIGHUP from ending the process).
func reloadOnHangup(store *memory.PostalStore, history *releases.History, data dataConfig, log *slog.Logger) (stop func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-sig:
				if !data.configured() {
					log.Info("SIGHUP: serving the embedded snapshot, nothing to re-read", "hint", "start with --data-dir DIR to serve files that SIGHUP re-reads")
					continue
				}
				if err := loadPostal(store, history, data, log); err != nil {
					log.Error("postal reload failed; the previous dataset is still served", "error", err)
				}
			case <-done:
				return
			}
		}
	}()
	return func() { signal.Stop(sig); close(done) }
}

// recordRelease records ds in history (nil: no history kept) and sets its
// terminated PINs; a history that does not begin with the embedded
// snapshot gets it as its first release.
func recordRelease(ctx context.Context, history *releases.History, ds *postal.Dataset, log *slog.Logger) error {
	if history == nil {
		return nil
	}
	start := time.Now()
	loaded, err := history.Load(ctx, ds, firstRelease)
	if err != nil {
		return fmt.Errorf("recording the postal release: %w", err)
	}
	if loaded.New {
		log.Info("new postal release recorded", "release", loaded.Release.Name(), "seq", loaded.Release.Seq,
			"changes", loaded.Release.Changes, "terminated_pincodes", len(ds.Terminated), "took", time.Since(start).String())
	}
	return nil
}

// firstRelease loads the embedded snapshot, the first release of every
// history.
func firstRelease() (*postal.Dataset, error) {
	return snapshot.Dataset()
}

// postalComponent reports whether postal data is served, and which.
func postalComponent(store ports.PostalStore) health.Component {
	return health.Component{
		Name:  "postal_data",
		Reads: true,
		Check: func(ctx context.Context) error {
			info, err := store.Info(ctx)
			switch {
			case err != nil:
				return err
			case !info.HasLGD:
				return health.Degraded(fmt.Sprintf("%d post offices loaded (source: %s), but no LGD state and district files: ids are derived from names",
					info.Offices, info.Source))
			}
			return nil
		},
		Describe: func(ctx context.Context) string {
			info, err := store.Info(ctx)
			if err != nil {
				return ""
			}
			return fmt.Sprintf("%d post offices; source: %s", info.Offices, info.Source)
		},
	}
}
