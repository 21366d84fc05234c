package fetch

import (
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/ports"
)

// Module provides the fetcher as the ports.PageFetcher, built from a Config
// in the graph, and drops its idle connections on stop.
var Module = fx.Module("fetch",
	fx.Provide(fx.Annotate(New, fx.OnStop(func(f *Fetcher) { f.Close() }), fx.As(new(ports.PageFetcher)))),
)
