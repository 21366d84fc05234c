package main

import (
	"github.com/spf13/pflag"
	"go.uber.org/fx"

	"github.com/pinsight/pinsight/adapters/tracing"
	"github.com/pinsight/pinsight/adapters/tracing/tracingfx"
)

// tracingConfig is serve's OpenTelemetry setting.
type tracingConfig struct {
	OTLPEndpoint string
}

// tracingFlags adds serve's tracing flag.
func tracingFlags(f *pflag.FlagSet, cfg *tracingConfig) {
	f.StringVar(&cfg.OTLPEndpoint, "otlp-endpoint", "",
		"OpenTelemetry collector's OTLP/HTTP URL (e.g. http://collector:4318): a span per request and per database query is sent there; empty: no tracing")
}

// tracingOptions adds the tracer provider when an endpoint is set; without
// one the graph has none, and nothing is instrumented.
func tracingOptions(cfg tracingConfig) fx.Option {
	if cfg.OTLPEndpoint == "" {
		return fx.Options()
	}
	return fx.Options(fx.Supply(tracing.Config{Endpoint: cfg.OTLPEndpoint, ServiceVersion: buildVersion()}), tracingfx.Module)
}
