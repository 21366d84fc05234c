// Package tracingfx provides the OpenTelemetry TracerProvider of package
// tracing to an fx graph. Add the module only when traces are exported:
// the parts that record spans (the HTTP edge, the databases) take the
// provider as optional and add no instrumentation without one.
package tracingfx

import (
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/tracing"
)

// Module provides a trace.TracerProvider exporting to the collector a
// tracing.Config in the graph names; stopping the app sends the spans
// still queued.
var Module = fx.Module("tracing",
	fx.Provide(newProvider),
)

func newProvider(lc fx.Lifecycle, cfg tracing.Config) (trace.TracerProvider, error) {
	t, err := tracing.New(cfg)
	if err != nil {
		return nil, err
	}
	lc.Append(fx.StopHook(t.Shutdown))
	return t.Provider(), nil
}
