package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/indiapost"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/ports"
)

// memoryPostal provides the in-memory postal store, loaded from the
// configured files before the server starts (a bad file fails the start)
// and re-read on SIGHUP: a reload that fails keeps the dataset served.
func memoryPostal(data dataConfig) fx.Option {
	return fx.Options(
		fx.Provide(
			func(lc fx.Lifecycle, log *slog.Logger) (*memory.PostalStore, error) {
				store := memory.NewPostalStore(nil)
				if !data.configured() {
					log.Warn("no postal data configured: postal endpoints answer 503", "hint", "start with --data-dir DIR or --postal-data FILE")
					return store, nil
				}
				if err := loadPostal(store, data, log); err != nil {
					return nil, err
				}
				stop := reloadOnHangup(store, data, log)
				lc.Append(fx.StopHook(stop))
				return store, nil
			},
			func(s *memory.PostalStore) ports.PostalStore { return s },
		),
		fx.Provide(app.AsComponent(func(s *memory.PostalStore) app.Component {
			return postalComponent(s, data.configured())
		})),
	)
}

// loadPostal reads, cleans and indexes the files, then swaps them in.
func loadPostal(store *memory.PostalStore, data dataConfig, log *slog.Logger) error {
	start := time.Now()
	res, err := indiapost.Load(data.files())
	if err != nil {
		return fmt.Errorf("loading postal data: %w", err)
	}
	store.Replace(res.Dataset)
	debug.FreeOSMemory() // hand the raw rows and parse buffers back to the OS now, not at the next GC cycles
	r := res.Dataset.Report
	log.Info("postal data loaded", "read_and_clean", res.Duration.String(), "total_with_indexes", time.Since(start).String(), "offices", r.Offices, "pincodes", r.Pincodes,
		"states", len(res.Dataset.States), "districts", len(res.Dataset.Districts), "villages", r.Villages,
		"lgd_codes", res.Dataset.HasLGD, "files", res.Files, "cleaning", r)
	return nil
}

// reloadOnHangup re-reads the files on every SIGHUP until stop is called.
func reloadOnHangup(store *memory.PostalStore, data dataConfig, log *slog.Logger) (stop func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-sig:
				if err := loadPostal(store, data, log); err != nil {
					log.Error("postal reload failed; the previous dataset is still served", "error", err)
				}
			case <-done:
				return
			}
		}
	}()
	return func() { signal.Stop(sig); close(done) }
}

// postalComponent reports whether postal data is served. Without any data
// configured that is the operator's choice, not a failure.
func postalComponent(store ports.PostalStore, configured bool) app.Component {
	return app.Component{Name: "postal_data", Check: func(ctx context.Context) error {
		info, err := store.Info(ctx)
		switch {
		case errors.Is(err, postal.ErrNoData) && !configured:
			return app.NotConfigured("no postal data files given")
		case err != nil:
			return err
		case !info.HasLGD:
			return app.Degraded(fmt.Sprintf("%d post offices loaded, but no LGD state and district files: ids are derived from names", info.Offices))
		}
		return nil
	}}
}
