package app

import (
	"context"
	"errors"

	"github.com/pinsight/pinsight/domain/site"
	"github.com/pinsight/pinsight/ports"
)

// ErrBusy is returned when every analysis slot is taken; transports answer
// 503 with Retry-After.
var ErrBusy = errors.New("app: analysis capacity exhausted, retry shortly")

// AnalyserConfig bounds the analyser.
type AnalyserConfig struct {
	Workers int          // analyses running at once (default 4)
	Weights site.Weights // score weights (default site.DefaultWeights)
}

// Analyser fetches a URL through the PageFetcher and runs the checks, at
// most Workers at a time; beyond that it refuses with ErrBusy rather than
// queueing.
type Analyser struct {
	fetcher ports.PageFetcher
	weights site.Weights
	slots   chan struct{}
}

// NewAnalyser returns an analyser over fetcher.
func NewAnalyser(fetcher ports.PageFetcher, cfg AnalyserConfig) *Analyser {
	if cfg.Workers <= 0 {
		cfg.Workers = 4
	}
	if cfg.Weights == nil {
		cfg.Weights = site.DefaultWeights
	}
	return &Analyser{fetcher: fetcher, weights: cfg.Weights, slots: make(chan struct{}, cfg.Workers)}
}

// Analyse fetches rawURL and analyses it. Errors: ErrBusy, *site.FetchError.
func (a *Analyser) Analyse(ctx context.Context, rawURL string) (site.Analysis, error) {
	select {
	case a.slots <- struct{}{}:
		defer func() { <-a.slots }()
	default:
		return site.Analysis{}, ErrBusy
	}
	f, err := a.fetcher.Fetch(ctx, rawURL)
	if err != nil {
		return site.Analysis{}, err
	}
	return site.Analyze(f, a.weights), nil
}

// Saturation reports the slots in use and the pool size (for metrics).
func (a *Analyser) Saturation() (inUse, size int) { return len(a.slots), cap(a.slots) }
