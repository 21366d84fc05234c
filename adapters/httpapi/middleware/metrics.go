package middleware

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// durationBuckets are the upper bounds (seconds) of the latency histogram.
var durationBuckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// Metrics is one server's Prometheus registry (not the global default, so
// several servers in one process keep their series apart) with the HTTP
// request histogram by route pattern and status, the rate limiter's
// decisions, the Go runtime and process collectors, and whatever else is
// registered on it: gauges through Gauge, any collector through Registry.
type Metrics struct {
	reg       *prometheus.Registry
	requests  *prometheus.CounterVec
	durations *prometheus.HistogramVec
	quota     *prometheus.CounterVec
	handler   http.Handler
	series    sync.Map // seriesKey -> *requestSeries: the hot path skips the vectors' label hashing
}

type seriesKey struct {
	route  string
	status int
}

// requestSeries are the two series of one route and status.
type requestSeries struct {
	count    prometheus.Counter
	duration prometheus.Observer
}

// NewMetrics returns a registry holding the HTTP and rate-limit series and
// the Go and process collectors.
func NewMetrics() *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		reg: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "pinsight_http_requests_total", Help: "Requests served, by route pattern and status.",
		}, []string{"route", "status"}),
		durations: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "pinsight_http_request_duration_seconds", Help: "Request latency, by route pattern and status.",
			Buckets: durationBuckets,
		}, []string{"route", "status"}),
		quota: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "pinsight_rate_limit_decisions_total",
			Help: "Rate-limit decisions, by quota (default, auth) and outcome (allowed, limited, error: the limiter failed and the request passed).",
		}, []string{"quota", "outcome"}),
	}
	reg.MustRegister(m.requests, m.durations, m.quota,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	// The edge's gzip compresses the exposition like any other answer.
	m.handler = promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg, DisableCompression: true})
	return m
}

// Registry is where other parts of the program register their collectors
// (e.g. a job queue's metrics); they are served with the rest at /metrics.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Gauge registers a value read at scrape time, e.g. the dataset size. A
// name registered twice panics, as any duplicate collector does.
func (m *Metrics) Gauge(name, help string, read func() float64) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, read))
}

// observe counts a served request; a nil *Metrics collects nothing.
func (m *Metrics) observe(route string, status int, d time.Duration) {
	if m == nil {
		return
	}
	k := seriesKey{route, status}
	v, ok := m.series.Load(k)
	if !ok {
		code := strconv.Itoa(status)
		v, _ = m.series.LoadOrStore(k, &requestSeries{
			count: m.requests.WithLabelValues(route, code), duration: m.durations.WithLabelValues(route, code),
		})
	}
	s := v.(*requestSeries)
	s.count.Inc()
	s.duration.Observe(d.Seconds())
}

// rateDecision counts one decision of the rate limiter.
func (m *Metrics) rateDecision(quota, outcome string) {
	if m == nil {
		return
	}
	m.quota.WithLabelValues(quota, outcome).Inc()
}

// ServeHTTP writes the registry in the Prometheus exposition format the
// scraper asks for (text by default).
func (m *Metrics) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.handler.ServeHTTP(w, r)
}
