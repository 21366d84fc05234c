// Package renderfx provides the browser renderer of package render to an
// fx graph.
package renderfx

import (
	"context"

	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/render"
	"github.com/pinsight/pinsight/app/appfx"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/ports"
)

// Module provides the renderer as the ports.Renderer, built from a
// render.Config and a render.Guard in the graph (the fetcher's SSRF guard,
// which cmd hands it), and its readiness component "renderer": optional, so
// a server without Chromium is ready and shows it unavailable. The browser
// starts on the first render, not with the server; it is stopped (every
// process of it waited for) when the app stops.
var Module = fx.Module("render",
	fx.Provide(fx.Annotate(newRenderer, fx.As(new(ports.Renderer)), fx.As(fx.Self()))),
	fx.Provide(appfx.AsComponent(readiness)),
)

func newRenderer(lc fx.Lifecycle, cfg render.Config, g render.Guard) (*render.Renderer, error) {
	r, err := render.New(cfg, g)
	if err != nil {
		return nil, err
	}
	lc.Append(fx.StopHook(func(context.Context) error { return r.Close() }))
	return r, nil
}

func readiness(r *render.Renderer) health.Component {
	return health.Component{Name: "renderer", Optional: true, Check: func(context.Context) error { return r.Available() }}
}
