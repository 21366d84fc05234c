package middleware

import (
	"fmt"
	"io"
	"net/http"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"time"
)

// durationBuckets are the upper bounds (seconds) of the latency histogram.
var durationBuckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// Metrics collects request counts and latencies by route and serves them in
// the Prometheus text format, plus any gauges registered by other parts.
type Metrics struct {
	mu     sync.Mutex
	routes map[routeKey]*routeStats
	gauges map[string]gauge
}

type routeKey struct {
	route  string
	status int
}

type routeStats struct {
	count   uint64
	sum     float64
	buckets []uint64
}

type gauge struct {
	help string
	read func() float64
}

// NewMetrics returns an empty collector.
func NewMetrics() *Metrics {
	return &Metrics{routes: map[routeKey]*routeStats{}, gauges: map[string]gauge{}}
}

// Gauge registers a value read at scrape time, e.g. the dataset size.
func (m *Metrics) Gauge(name, help string, read func() float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gauges[name] = gauge{help: help, read: read}
}

func (m *Metrics) observe(route string, status int, d time.Duration) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	k := routeKey{route, status}
	s := m.routes[k]
	if s == nil {
		s = &routeStats{buckets: make([]uint64, len(durationBuckets))}
		m.routes[k] = s
	}
	sec := d.Seconds()
	s.count++
	s.sum += sec
	for i, b := range durationBuckets {
		if sec <= b {
			s.buckets[i]++
		}
	}
}

// ServeHTTP writes the metrics in the Prometheus text exposition format.
func (m *Metrics) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	m.write(w)
}

func (m *Metrics) write(w io.Writer) {
	m.mu.Lock()
	keys := make([]routeKey, 0, len(m.routes))
	for k := range m.routes {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i].route < keys[j].route || keys[i].route == keys[j].route && keys[i].status < keys[j].status
	})
	fmt.Fprintln(w, "# HELP pinsight_http_requests_total Requests served, by route pattern and status.")
	fmt.Fprintln(w, "# TYPE pinsight_http_requests_total counter")
	for _, k := range keys {
		fmt.Fprintf(w, "pinsight_http_requests_total{route=%q,status=\"%d\"} %d\n", k.route, k.status, m.routes[k].count)
	}
	fmt.Fprintln(w, "# HELP pinsight_http_request_duration_seconds Request latency, by route pattern and status.")
	fmt.Fprintln(w, "# TYPE pinsight_http_request_duration_seconds histogram")
	for _, k := range keys {
		s := m.routes[k]
		labels := fmt.Sprintf("route=%q,status=\"%d\"", k.route, k.status)
		for i, b := range durationBuckets {
			fmt.Fprintf(w, "pinsight_http_request_duration_seconds_bucket{%s,le=\"%s\"} %d\n", labels, strconv.FormatFloat(b, 'g', -1, 64), s.buckets[i])
		}
		fmt.Fprintf(w, "pinsight_http_request_duration_seconds_bucket{%s,le=\"+Inf\"} %d\n", labels, s.count)
		fmt.Fprintf(w, "pinsight_http_request_duration_seconds_sum{%s} %g\n", labels, s.sum)
		fmt.Fprintf(w, "pinsight_http_request_duration_seconds_count{%s} %d\n", labels, s.count)
	}
	names := make([]string, 0, len(m.gauges))
	for n := range m.gauges {
		names = append(names, n)
	}
	sort.Strings(names)
	gauges := make([]gauge, len(names))
	for i, n := range names {
		gauges[i] = m.gauges[n]
	}
	m.mu.Unlock()
	for i, n := range names {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s gauge\n%s %g\n", n, gauges[i].help, n, n, gauges[i].read())
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(w, "# HELP go_goroutines Goroutines that currently exist.\n# TYPE go_goroutines gauge\ngo_goroutines %d\n", runtime.NumGoroutine())
	fmt.Fprintf(w, "# HELP go_memstats_heap_alloc_bytes Bytes of allocated heap objects.\n# TYPE go_memstats_heap_alloc_bytes gauge\ngo_memstats_heap_alloc_bytes %d\n", ms.HeapAlloc)
}
