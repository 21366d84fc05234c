// Package tracing exports OpenTelemetry traces over OTLP/HTTP (protobuf)
// to a collector: a TracerProvider that the HTTP edge (otelhttp) and the
// bun databases (bunotel) record their spans with. Without an endpoint
// nothing is set up at all: callers then add no instrumentation, so
// tracing costs nothing when it is off.
package tracing

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
	"go.opentelemetry.io/otel/trace"
)

// Config names the collector and the service.
type Config struct {
	// Endpoint is the collector's OTLP/HTTP URL, e.g.
	// http://collector:4318 (spans are posted to its /v1/traces unless the
	// URL has a path of its own).
	Endpoint       string
	ServiceName    string        // default "pinsight"
	ServiceVersion string        // optional
	BatchTimeout   time.Duration // how long spans wait to be sent in a batch; default 5 s
}

// Tracing is a TracerProvider exporting to a collector.
type Tracing struct {
	provider *sdktrace.TracerProvider
}

// New sets up the exporter for cfg.Endpoint (which must be an http or
// https URL); nothing is sent until spans end.
func New(cfg Config) (*Tracing, error) {
	endpoint, err := tracesURL(cfg.Endpoint)
	if err != nil {
		return nil, err
	}
	exp, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(endpoint))
	if err != nil {
		return nil, fmt.Errorf("tracing: OTLP exporter: %w", err)
	}
	if cfg.ServiceName == "" {
		cfg.ServiceName = "pinsight"
	}
	if cfg.BatchTimeout <= 0 {
		cfg.BatchTimeout = 5 * time.Second
	}
	attrs := []resource.Option{resource.WithAttributes(semconv.ServiceName(cfg.ServiceName))}
	if cfg.ServiceVersion != "" {
		attrs = append(attrs, resource.WithAttributes(semconv.ServiceVersion(cfg.ServiceVersion)))
	}
	res, err := resource.New(context.Background(), attrs...)
	if err != nil {
		return nil, fmt.Errorf("tracing: resource: %w", err)
	}
	return &Tracing{provider: sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exp, sdktrace.WithBatchTimeout(cfg.BatchTimeout)),
		sdktrace.WithResource(res),
	)}, nil
}

// tracesURL checks an endpoint and adds OTLP's traces path when it has none.
func tracesURL(endpoint string) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", errors.New("tracing: the OTLP endpoint " + endpoint + " is not an http:// or https:// URL")
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/v1/traces"
	}
	return u.String(), nil
}

// Provider is the TracerProvider to record spans with.
func (t *Tracing) Provider() trace.TracerProvider { return t.provider }

// Shutdown sends the spans still queued and stops the exporter.
func (t *Tracing) Shutdown(ctx context.Context) error { return t.provider.Shutdown(ctx) }
