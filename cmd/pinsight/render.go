package main

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/fetch"
	"github.com/pinsight/pinsight/adapters/render"
	"github.com/pinsight/pinsight/adapters/render/renderfx"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/pagecheck"
)

// renderConfig configures rendered analyses: the browser, its pool and the
// users' quota of renders.
type renderConfig struct {
	Browser render.Config
	Daily   int    // rendered analyses one user may start a day; 0: no quota
	Default string // the render mode of requests that name none
}

// renderFlags adds the rendering flags of serve, worker and mcp.
func renderFlags(f *pflag.FlagSet, c *renderConfig) {
	f.StringVar(&c.Browser.Chromium, "chromium", "", "Chromium binary for rendered analyses (render on or auto); empty: $PINSIGHT_CHROMIUM, then chromium, chromium-browser, google-chrome on PATH. Without one, render on is 422 and /readyz shows the renderer unavailable")
	f.IntVar(&c.Browser.Contexts, "render-contexts", render.DefaultContexts, "pages rendered at once (one incognito browser context each); further renders wait their turn")
	f.DurationVar(&c.Browser.Total, "render-timeout", render.DefaultTotal, "one deadline for a render, from its turn in the pool to its snapshot; a page that never settles is audited as it stands then")
	f.IntVar(&c.Browser.MemoryMB, "render-memory-mb", render.DefaultMemoryMB, "memory cap of the browser's processes in MB; over it the browser is restarted and the renders in flight fail (their reports keep the audit of the HTML the server sent)")
	f.IntVar(&c.Daily, "user-daily-renders", reports.DefaultUserRenderDaily.Requests, "rendered pages one user may ask for in 24 h (analyses with render on or auto, and each page of a rendered crawl; charged when accepted), besides --user-daily-analyses; beyond, 429 with Retry-After (0: no quota)")
	f.StringVar(&c.Default, "render-default", string(reports.DefaultRender), "render mode of analyses whose request names none: off, on or auto")
}

// renderOptions supplies the renderer and its settings; the analyser's
// quota of renders goes into analyser.
func renderOptions(c renderConfig, analyser *reports.AnalyserConfig) (fx.Option, time.Duration, error) {
	mode, ok := pagecheck.ParseRenderMode(c.Default)
	if !ok {
		return nil, 0, fmt.Errorf("--render-default must be %s", pagecheck.RenderModesText)
	}
	analyser.UserRenderDaily = quota(c.Daily, 24*time.Hour)
	total := c.Browser.Total
	if total <= 0 {
		total = render.DefaultTotal
	}
	return fx.Options(
		fx.Supply(c.Browser, reports.RenderSettings{Default: mode}),
		// The browser's requests go through the fetcher's SSRF guard.
		fx.Provide(func(f *fetch.Fetcher) render.Guard { return f }),
		renderfx.Module,
	), total, nil
}
