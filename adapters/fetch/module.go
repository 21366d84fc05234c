package fetch

import (
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/ports"
)

// Module provides the fetcher as the ports.PageFetcher, built from a Config
// in the graph, and drops its idle connections on stop.
var Module = fx.Module("fetch",
	fx.Provide(fx.Annotate(newManaged, fx.As(new(ports.PageFetcher)))),
)

// newManaged is New with the fetcher's Close hooked to the app's stop.
func newManaged(lc fx.Lifecycle, cfg Config) (*Fetcher, error) {
	f, err := New(cfg)
	if err != nil {
		return nil, err
	}
	lc.Append(fx.StopHook(f.Close))
	return f, nil
}
