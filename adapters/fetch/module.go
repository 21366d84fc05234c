package fetch

import (
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/ports"
)

// Module provides the fetcher as the ports.PageFetcher, built from a Config
// in the graph. It holds no connections between fetches, so it has nothing
// to close on stop.
var Module = fx.Module("fetch",
	fx.Provide(fx.Annotate(New, fx.As(new(ports.PageFetcher)))),
)
