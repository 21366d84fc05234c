// Package fetchfx provides the page fetcher of package fetch to an fx graph.
package fetchfx

import (
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/ports"
)

// Module provides the fetcher as itself (whose guarded dial the renderer
// shares), as the ports.PageFetcher and as the ports.SiteFetcher of crawls
// (and the poster of webhook deliveries, with the same guard, as the
// ports.WebhookPoster), built from a fetch.Config in the graph (a bad one
// fails the start). It holds no
// connections between fetches, so it has nothing to close on stop.
var Module = fx.Module("fetch",
	fx.Provide(fx.Annotate(fetch.New, fx.As(fx.Self()), fx.As(new(ports.PageFetcher)), fx.As(new(ports.SiteFetcher)))),
	fx.Provide(fx.Annotate(fetch.NewPoster, fx.As(new(ports.WebhookPoster)))),
)
