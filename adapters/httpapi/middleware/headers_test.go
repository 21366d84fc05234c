package middleware_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/httpapitest"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/health"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

// downAccounts is an account store whose database is down for key lookups.
type downAccounts struct{ ports.AccountStore }

func (downAccounts) KeyByHash(context.Context, string, time.Time) (account.APIKey, error) {
	return account.APIKey{}, ports.ErrUnavailable
}

// downReports is a report store whose database is down for the report page.
type downReports struct{ ports.ReportStore }

func (downReports) ReportByToken(context.Context, string) (report.Report, error) {
	return report.Report{}, ports.ErrUnavailable
}

// TestSecurityHeaders: every kind of answer carries X-Content-Type-Options:
// nosniff, and every 503 Retry-After: API successes and errors, the mux's
// 404 and 405, panics, limits, metrics, docs, the OpenAPI document, the
// HTML report page, 304s, CORS preflights, and each source of 503 (no
// postal data, database down, not ready, analysis pool busy, concurrency
// cap). httpapitest.Hostile checks the same on every operation.
func TestSecurityHeaders(t *testing.T) {
	analyser := apitest.NewFakeAnalyser()
	reportStore := memory.NewReportStore()
	acc := accounts.New(memory.NewAccountStore(), apitest.Passwords)
	inside, release := make(chan struct{}, 1), make(chan struct{})
	build := func(r httpapi.Routes, limits middleware.RequestLimits) http.Handler {
		mux := http.NewServeMux()
		if err := httpapi.Register(httpapi.NewAPI(mux), r); err != nil {
			t.Fatal(err)
		}
		m := middleware.NewMetrics()
		mux.Handle("GET /metrics", m)
		mux.HandleFunc("GET /api/v1/panic", func(http.ResponseWriter, *http.Request) { panic("boom") })
		mux.HandleFunc("GET /api/v1/slow", func(w http.ResponseWriter, _ *http.Request) {
			inside <- struct{}{}
			<-release
			_, _ = io.WriteString(w, `{"success":true,"data":null}`)
		})
		return middleware.NewHandler(mux, middleware.Options{
			Metrics: m, Limits: limits, CORSOrigins: []string{"https://app.example"}, Authenticate: r.Accounts.Authenticate,
			Limiter: memory.NewRateLimiter(), RateLimits: middleware.RateLimits{Default: ratelimit.Limit{Requests: 1000, Window: time.Minute}, Auth: ratelimit.Limit{Requests: 4, Window: time.Minute}},
		})
	}
	up := apitest.PostalRoutes(memory.NewPostalStore(porttest.PostalDataset()))
	up.Health = health.New([]health.Component{{Name: "database", Check: func(context.Context) error { return errors.New("down") }}})
	up.Accounts, up.Reports, up.Projects = acc, reports.New(reportStore, analyser, apitest.Passwords), reports.NewProjects(reportStore)
	h := build(up, middleware.RequestLimits{MaxConcurrent: 1, MaxURLBytes: 200})
	broken := apitest.PostalRoutes(memory.NewPostalStore(nil))
	broken.Accounts = accounts.New(downAccounts{memory.NewAccountStore()}, apitest.Passwords)
	broken.Reports, broken.Projects = reports.New(downReports{reportStore}, analyser, apitest.Passwords), reports.NewProjects(reportStore)
	down := build(broken, middleware.RequestLimits{})

	key := apitest.Login(t, h, "ada@example.com")
	public := analyserReport(t, h, key, "url=https://alpha.com/&privacy=0")
	etag := apitest.Do(t, h, http.MethodGet, "/api/v1/pincodes/800001", "", "").Header.Get("ETag")

	type request struct {
		h              http.Handler
		method, target string
		headers        []string
		status         int
	}
	requests := []request{
		{h, "GET", "/api/v1/digipin/info", nil, 200},
		{h, "GET", "/api/v1/pincodes/800001", nil, 200},
		{h, "GET", "/api/v1/pincodes/800001", []string{"If-None-Match", etag}, 304},
		{h, "GET", "/api/v1/pincodes/000000", nil, 404},
		{h, "GET", "/api/v1/pincodes/00000", nil, 422},
		{h, "GET", "/api/v1/pincodes/999999", nil, 404},
		{h, "GET", "/nowhere", nil, 404},
		{h, "DELETE", "/api/v1/digipin/info", nil, 405},
		{h, "GET", "/api/v1/panic", nil, 500},
		{h, "GET", "/api/v1/digipin/info?x=" + strings.Repeat("a", 200), nil, 414},
		{h, "GET", "/api/v1/account", nil, 401},
		{h, "GET", "/api/v1/account", apitest.Bearer(key), 200},
		{h, "GET", "/metrics", nil, 200},
		{h, "GET", "/docs", nil, 200},
		{h, "GET", "/openapi.json", nil, 200},
		{h, "GET", "/openapi.yaml", nil, 200},
		{h, "GET", "/healthz", nil, 200},
		{h, "GET", "/readyz", nil, 503},
		{h, "OPTIONS", "/api/v1/account", []string{"Origin", "https://app.example", "Access-Control-Request-Method", "GET"}, 204},
		{h, "GET", public, nil, 200},
		{h, "GET", "/r/" + report.NewShareToken(), nil, 404},
		{h, "GET", "/reports/1", nil, 404},
		{down, "GET", "/api/v1/pincodes/800001", nil, 503},
		{down, "GET", "/api/v1/account", apitest.Bearer("psk_any"), 503},
		{down, "GET", "/r/" + report.NewShareToken(), nil, 503},
	}
	check := func(r request, rec *httptest.ResponseRecorder) {
		t.Helper()
		if rec.Code != r.status {
			t.Errorf("%s %.60s = %d, want %d", r.method, r.target, rec.Code, r.status)
		}
		if problem := httpapitest.HeaderProblem(rec.Code, rec.Header()); problem != "" {
			t.Errorf("%s %.60s = %d: %s", r.method, r.target, rec.Code, problem)
		}
	}
	serve := func(r request) {
		t.Helper()
		req := httptest.NewRequest(r.method, r.target, nil)
		for i := 0; i+1 < len(r.headers); i += 2 {
			req.Header.Set(r.headers[i], r.headers[i+1])
		}
		rec := httptest.NewRecorder()
		r.h.ServeHTTP(rec, req)
		check(r, rec)
	}
	for _, r := range requests {
		serve(r)
	}
	// Rate limited (the login quota is 4; 2 are spent), analysis pool busy,
	// concurrency cap.
	for range 2 {
		apitest.Do(t, h, http.MethodPost, "/api/v1/login", apitest.JSONType, `{}`)
	}
	serve(request{h, "POST", "/api/v1/login", nil, 429})
	analyser.SetBusy(true)
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/api/v1/reports", strings.NewReader("url=https://beta.com/"))
	req.Header.Set("Content-Type", apitest.FormType)
	req.Header.Set("Authorization", "Bearer "+key)
	h.ServeHTTP(rec, req)
	check(request{method: "POST", target: "/api/v1/reports (pool busy)", status: 503}, rec)
	analyser.SetBusy(false)
	done := make(chan struct{})
	go func() { defer close(done); apitest.Do(t, h, http.MethodGet, "/api/v1/slow", "", "") }()
	<-inside
	serve(request{h, "GET", "/api/v1/digipin/info", nil, 503})
	close(release)
	<-done
}

// analyserReport creates a report and returns its share page's path.
func analyserReport(t *testing.T, h http.Handler, key, form string) string {
	t.Helper()
	res := apitest.Do(t, h, http.MethodPost, "/api/v1/reports", apitest.FormType, form, apitest.Bearer(key)...)
	var r wire.ReportData
	res.Decode(t, &r)
	if res.Status != http.StatusCreated {
		t.Fatalf("create %q = %d %s", form, res.Status, res.Message)
	}
	return r.ShareURL
}
