package middleware_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/domain/ratelimit"
)

// scrape serves m's exposition and parses it with Prometheus's own text
// parser: a malformed exposition fails the test.
func scrape(t *testing.T, m http.Handler) map[string]*dto.MetricFamily {
	t.Helper()
	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/plain") {
		t.Fatalf("/metrics = %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatalf("exposition does not parse: %v", err)
	}
	return families
}

// labelled finds the series of f with the given route and status labels.
func labelled(f *dto.MetricFamily, route, status string) *dto.Metric {
	for _, m := range f.GetMetric() {
		var r, s string
		for _, l := range m.GetLabel() {
			switch l.GetName() {
			case "route":
				r = l.GetValue()
			case "status":
				s = l.GetValue()
			}
		}
		if r == route && s == status {
			return m
		}
	}
	return nil
}

func counterValue(f *dto.MetricFamily, route, status string) float64 {
	return labelled(f, route, status).GetCounter().GetValue()
}

func histogramCount(f *dto.MetricFamily, route, status string) uint64 {
	return labelled(f, route, status).GetHistogram().GetSampleCount()
}

func TestMetricsExposition(t *testing.T) {
	m := middleware.NewMetrics()
	limits := middleware.RateLimits{Default: ratelimit.Limit{Requests: 1, Window: time.Minute}}
	h := newLimitedHandler(t, limits, &fixedClock{t: time.Unix(1e9, 0)}, nil, m)
	apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/39J-438-TJC7/neighbours", "", "")
	apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/39J-438-TJC8/neighbours", "", "") // over the quota: 429
	families := scrape(t, m)
	for _, name := range []string{"go_goroutines", "process_resident_memory_bytes", "go_memstats_heap_alloc_bytes"} {
		if f := families[name]; f == nil || len(f.GetMetric()) == 0 {
			t.Errorf("%s missing", name)
		}
	}
	if rss := families["process_resident_memory_bytes"].GetMetric()[0].GetGauge().GetValue(); rss <= 0 {
		t.Errorf("process_resident_memory_bytes = %v", rss)
	}
	durations := families["pinsight_http_request_duration_seconds"]
	if durations.GetType() != dto.MetricType_HISTOGRAM {
		t.Fatalf("pinsight_http_request_duration_seconds is a %v", durations.GetType())
	}
	// The route label is the matched pattern, never the raw path.
	ok := labelled(durations, "GET /api/v1/digipin/{code}/neighbours", "200")
	if ok.GetHistogram().GetSampleCount() != 1 || len(ok.GetHistogram().GetBucket()) == 0 {
		t.Errorf("histogram {neighbours, 200} = %v", ok)
	}
	if histogramCount(durations, "GET /api/v1/digipin/{code}/neighbours", "429") != 1 {
		t.Errorf("the 429 is not counted")
	}
	for _, s := range durations.GetMetric() {
		for _, l := range s.GetLabel() {
			if strings.Contains(l.GetValue(), "39J") {
				t.Errorf("a raw path leaked into a label: %v", l)
			}
		}
	}
	decisions := map[string]float64{}
	for _, s := range families["pinsight_rate_limit_decisions_total"].GetMetric() {
		var q, o string
		for _, l := range s.GetLabel() {
			if l.GetName() == "quota" {
				q = l.GetValue()
			} else {
				o = l.GetValue()
			}
		}
		decisions[q+"/"+o] = s.GetCounter().GetValue()
	}
	if decisions["default/allowed"] != 1 || decisions["default/limited"] != 1 {
		t.Errorf("rate-limit decisions = %v", decisions)
	}
}

// Each server has a registry of its own: two in one process register the
// same names without colliding, and count apart.
func TestMetricsPerServer(t *testing.T) {
	a, b := middleware.NewMetrics(), middleware.NewMetrics()
	a.Gauge("pinsight_postal_offices", "Offices.", func() float64 { return 1 })
	b.Gauge("pinsight_postal_offices", "Offices.", func() float64 { return 2 })
	h := newLimitedHandler(t, middleware.RateLimits{}, &fixedClock{t: time.Now()}, nil, a)
	apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/info", "", "")
	if got := counterValue(scrape(t, a)["pinsight_http_requests_total"], "GET /api/v1/digipin/info", "200"); got != 1 {
		t.Errorf("a counted %v requests, want 1", got)
	}
	fb := scrape(t, b)
	if fb["pinsight_http_requests_total"] != nil {
		t.Errorf("b counted a's request")
	}
	if fb["pinsight_postal_offices"].GetMetric()[0].GetGauge().GetValue() != 2 {
		t.Errorf("b's gauge reads a's")
	}
}

// TestContextLog: a line logged with a request's context names the
// request's id, once, even when the line names it itself.
func TestContextLog(t *testing.T) {
	var buf strings.Builder
	log := slog.New(middleware.ContextLog(slog.NewJSONHandler(&buf, nil)))
	mux := http.NewServeMux()
	mux.HandleFunc("GET /x", func(w http.ResponseWriter, r *http.Request) {
		log.InfoContext(r.Context(), "inside")
		log.InfoContext(r.Context(), "named", "request_id", middleware.RequestID(r.Context()))
		log.Info("no context")
	})
	h := middleware.NewHandler(mux, middleware.Options{})
	req := httptest.NewRequest(http.MethodGet, "/x", nil)
	req.Header.Set("X-Request-Id", "req-42")
	h.ServeHTTP(httptest.NewRecorder(), req)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], `"request_id":"req-42"`) || strings.Count(lines[1], "request_id") != 1 ||
		strings.Contains(lines[2], "request_id") {
		t.Errorf("log lines:\n%s", buf.String())
	}
}
