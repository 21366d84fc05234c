package middleware_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/domain/ratelimit"
)

// fixedClock is a settable clock for the limiter.
type fixedClock struct{ t time.Time }

func (c *fixedClock) now() time.Time { return c.t }

func newLimitedHandler(t *testing.T, limits middleware.RateLimits, clock *fixedClock, log *slog.Logger, m *middleware.Metrics) http.Handler {
	t.Helper()
	mux := http.NewServeMux()
	acc := accounts.New(memory.NewAccountStore(), apitest.Passwords)
	if err := httpapi.Register(httpapi.NewAPI(mux), httpapi.Routes{Health: health.New(nil), Accounts: acc}); err != nil {
		t.Fatal(err)
	}
	return middleware.NewHandler(mux, middleware.Options{
		Log: log, Metrics: m, Limiter: memory.NewRateLimiterWithClock(clock.now), RateLimits: limits, CORSOrigins: []string{"https://app.example"},
		Authenticate: acc.Authenticate,
	})
}

func TestRateLimit(t *testing.T) {
	clock := &fixedClock{t: time.Unix(1e9, 0)}
	limits := middleware.RateLimits{
		Default: ratelimit.Limit{Requests: 3, Window: time.Minute},
		Auth:    ratelimit.Limit{Requests: 1, Window: time.Minute},
	}
	h := newLimitedHandler(t, limits, clock, nil, nil)
	for i := range 3 {
		res := apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/info", "", "")
		if res.Status != 200 || res.Header.Get("RateLimit-Limit") != "3" || res.Header.Get("RateLimit-Remaining") != string(rune('2'-i)) {
			t.Fatalf("request %d: %d, limit %q remaining %q", i, res.Status, res.Header.Get("RateLimit-Limit"), res.Header.Get("RateLimit-Remaining"))
		}
	}
	res := apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/info", "", "")
	if res.Status != 429 || res.Code != "rate_limited" || res.Header.Get("Retry-After") != "20" {
		t.Fatalf("4th request = %d %q Retry-After %q; want 429 after 20 s", res.Status, res.Code, res.Header.Get("Retry-After"))
	}
	if res := apitest.Do(t, h, http.MethodGet, "/healthz", "", ""); res.Status != 200 {
		t.Errorf("healthz is limited: %d", res.Status)
	}
	// Another client (by IP) has its own quota.
	req := httptest.NewRequest(http.MethodGet, "/api/v1/digipin/info", nil)
	req.RemoteAddr = "198.51.100.7:1234"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Errorf("other client = %d, want 200", rec.Code)
	}
	// Login is stricter: the second attempt in the window is refused.
	apitest.Do(t, h, http.MethodPost, "/api/v1/login", apitest.JSONType, `{"email":"a@example.com","password":"x"}`)
	if res := apitest.Do(t, h, http.MethodPost, "/api/v1/login", apitest.JSONType, `{"email":"a@example.com","password":"x"}`); res.Status != 429 {
		t.Errorf("second login = %d, want 429", res.Status)
	}
	clock.t = clock.t.Add(time.Minute)
	if res := apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/info", "", ""); res.Status != 200 {
		t.Errorf("after the window = %d, want 200", res.Status)
	}
}

func TestClientIPBehindTrustedProxy(t *testing.T) {
	clock := &fixedClock{t: time.Unix(1e9, 0)}
	proxies, _ := middleware.ParsePrefixes("10.0.0.0/8, 192.0.2.1")
	h := newLimitedHandler(t, middleware.RateLimits{Default: ratelimit.Limit{Requests: 1, Window: time.Minute}, TrustedProxies: proxies}, clock, nil, nil)
	send := func(remote, xff string) int {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/digipin/info", nil)
		req.RemoteAddr = remote
		if xff != "" {
			req.Header.Set("X-Forwarded-For", xff)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	if send("10.1.1.1:1", "203.0.113.5") != 200 || send("10.1.1.2:1", "203.0.113.6, 10.9.9.9") != 200 {
		t.Fatal("distinct clients behind the proxy share a quota")
	}
	if got := send("192.0.2.1:1", "203.0.113.5"); got != 429 {
		t.Errorf("same forwarded client via another trusted proxy = %d, want 429", got)
	}
	// An untrusted peer cannot choose its identity with X-Forwarded-For.
	if send("198.51.100.1:1", "203.0.113.77") != 200 || send("198.51.100.1:1", "203.0.113.78") != 429 {
		t.Error("an untrusted peer escaped its quota with X-Forwarded-For")
	}
}

func TestRequestIDLogsAndMetrics(t *testing.T) {
	var logs bytes.Buffer
	m := middleware.NewMetrics()
	m.Gauge("pinsight_test_gauge", "A test gauge.", func() float64 { return 42 })
	h := newLimitedHandler(t, middleware.RateLimits{}, &fixedClock{t: time.Now()}, slog.New(slog.NewJSONHandler(&logs, nil)), m)
	res := apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/info", "", "", "X-Request-Id", "abc-123")
	if res.Header.Get("X-Request-Id") != "abc-123" {
		t.Errorf("X-Request-Id not echoed: %q", res.Header.Get("X-Request-Id"))
	}
	// A key (checked at the edge) and a body (tracked) make the middlewares
	// serve copies of the request: the route is still logged and counted.
	res = apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/info", "", "", "X-Request-Id", "bad id\x01", "Authorization", "Bearer psk_unknown")
	if id := res.Header.Get("X-Request-Id"); id == "" || strings.Contains(id, " ") {
		t.Errorf("invalid X-Request-Id kept or none generated: %q", id)
	}
	apitest.Do(t, h, http.MethodPost, "/api/v1/login", apitest.JSONType, `{"email":"a@example.com","password":"secret-password"}`, "Authorization", "Bearer psk_secret")
	if s := logs.String(); !strings.Contains(s, `"route":"GET /api/v1/digipin/info"`) || !strings.Contains(s, `"request_id":"abc-123"`) ||
		strings.Contains(s, "secret-password") || strings.Contains(s, "psk_secret") {
		t.Errorf("access log wrong or leaking secrets:\n%s", s)
	}
	families := scrape(t, m)
	if got := counterValue(families["pinsight_http_requests_total"], "GET /api/v1/digipin/info", "200"); got != 2 {
		t.Errorf("pinsight_http_requests_total{GET /api/v1/digipin/info, 200} = %v, want 2", got)
	}
	if got := histogramCount(families["pinsight_http_request_duration_seconds"], "POST /api/v1/login", "401"); got != 1 {
		t.Errorf("duration histogram count {POST /api/v1/login, 401} = %d, want 1", got)
	}
	if g := families["pinsight_test_gauge"]; g == nil || g.GetMetric()[0].GetGauge().GetValue() != 42 {
		t.Errorf("pinsight_test_gauge = %v, want 42", g)
	}
}

func TestCORS(t *testing.T) {
	h := newLimitedHandler(t, middleware.RateLimits{}, &fixedClock{t: time.Now()}, nil, nil)
	res := apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/info", "", "", "Origin", "https://anywhere.example")
	if res.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("public route ACAO = %q, want *", res.Header.Get("Access-Control-Allow-Origin"))
	}
	res = apitest.Do(t, h, http.MethodGet, "/api/v1/account", "", "", "Origin", "https://evil.example")
	if res.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("API route allowed an unlisted origin")
	}
	req := httptest.NewRequest(http.MethodOptions, "/api/v1/account", nil)
	req.Header.Set("Origin", "https://app.example")
	req.Header.Set("Access-Control-Request-Method", "GET")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 204 || rec.Header().Get("Access-Control-Allow-Origin") != "https://app.example" || !strings.Contains(rec.Header().Get("Access-Control-Allow-Headers"), "Authorization") {
		t.Errorf("preflight = %d %v", rec.Code, rec.Header())
	}
}

func TestGzip(t *testing.T) {
	h := newLimitedHandler(t, middleware.RateLimits{}, &fixedClock{t: time.Now()}, nil, nil)
	req := httptest.NewRequest(http.MethodGet, "/openapi.json", nil)
	req.Header.Set("Accept-Encoding", "gzip, br")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("large body not compressed: %v", rec.Header())
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(zr)
	if err != nil || !bytes.HasPrefix(bytes.TrimSpace(body), []byte("{")) {
		t.Fatalf("decompressed body: %v %.40q", err, body)
	}
	req = httptest.NewRequest(http.MethodGet, "/healthz", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Header().Get("Content-Encoding") != "" || !strings.Contains(rec.Body.String(), `"ok"`) {
		t.Errorf("small body compressed or lost: %v %q", rec.Header(), rec.Body.String())
	}
}
