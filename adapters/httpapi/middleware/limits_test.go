package middleware_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/app/health"
)

// limitedHandler is the production handler with limits, plus a route that
// holds each request until release is closed.
func limitedHandler(t *testing.T, l middleware.RequestLimits) (h http.Handler, inside chan struct{}, release chan struct{}) {
	t.Helper()
	mux := http.NewServeMux()
	if err := httpapi.Register(httpapi.NewAPI(mux), httpapi.Routes{Health: health.New(nil)}); err != nil {
		t.Fatal(err)
	}
	inside, release = make(chan struct{}, 16), make(chan struct{})
	mux.HandleFunc("GET /api/v1/slow", func(w http.ResponseWriter, _ *http.Request) {
		inside <- struct{}{}
		<-release
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"success":true,"data":null}`)
	})
	return middleware.NewHandler(mux, middleware.Options{Limits: l}), inside, release
}

func TestRequestLimits(t *testing.T) {
	h, _, _ := limitedHandler(t, middleware.RequestLimits{MaxURLBytes: 100, MaxQueryParams: 3, MaxHeaderBytes: 300})
	query := func(n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = "p=" + string(rune('a'+i))
		}
		return "/api/v1/digipin/info?" + strings.Join(parts, "&")
	}
	for _, tc := range []struct {
		name, target   string
		headers        []string
		status         int
		code, errField string
	}{
		{name: "short URL", target: "/api/v1/digipin/info", status: 200},
		{name: "long URL", target: "/api/v1/digipin/info?x=" + strings.Repeat("a", 100), status: 414, code: "request_uri_too_long"},
		{name: "query at the cap", target: query(3), status: 200},
		{name: "empty pairs not counted", target: query(3) + "&&&", status: 200},
		{name: "query over the cap", target: query(4), status: 400, code: "bad_request", errField: "query"},
		{name: "repeated parameter counts", target: "/api/v1/digipin/info?a=1&a=2&a=3&a=4", status: 400, code: "bad_request", errField: "query"},
		{name: "large headers", target: "/api/v1/digipin/info", headers: []string{"X-Filler", strings.Repeat("h", 300)}, status: 431, code: "request_header_fields_too_large"},
		{name: "limits apply to 404s too", target: "/nowhere?x=" + strings.Repeat("a", 100), status: 414, code: "request_uri_too_long"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := apitest.Do(t, h, http.MethodGet, tc.target, "", "", tc.headers...)
			if res.Status != tc.status || res.Code != tc.code {
				t.Fatalf("GET %.60s = %d %q (%s); want %d %q", tc.target, res.Status, res.Code, res.Message, tc.status, tc.code)
			}
			if tc.errField != "" && len(res.Errors[tc.errField]) == 0 {
				t.Errorf("errors = %v, want one on %q", res.Errors, tc.errField)
			}
		})
	}
}

func TestRequestLimitDefaults(t *testing.T) {
	h, _, _ := limitedHandler(t, middleware.RequestLimits{})
	params := strings.Repeat("a=1&", middleware.DefaultMaxQueryParams)
	if res := apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/info?"+params, "", ""); res.Status != 200 {
		t.Errorf("%d parameters = %d, want 200", middleware.DefaultMaxQueryParams, res.Status)
	}
	if res := apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/info?"+params+"b=2", "", ""); res.Status != 400 {
		t.Errorf("%d parameters = %d, want 400", middleware.DefaultMaxQueryParams+1, res.Status)
	}
	long := "/api/v1/digipin/info?x=" + strings.Repeat("a", middleware.DefaultMaxURLBytes)
	if res := apitest.Do(t, h, http.MethodGet, long, "", ""); res.Status != 414 {
		t.Errorf("URL over %d bytes = %d, want 414", middleware.DefaultMaxURLBytes, res.Status)
	}
	h, _, _ = limitedHandler(t, middleware.RequestLimits{MaxURLBytes: -1, MaxQueryParams: -1})
	if res := apitest.Do(t, h, http.MethodGet, long+"&"+params+"b=2", "", ""); res.Status != 200 {
		t.Errorf("disabled caps: %d, want 200", res.Status)
	}
}

func TestConcurrencyLimit(t *testing.T) {
	h, inside, release := limitedHandler(t, middleware.RequestLimits{MaxConcurrent: 2})
	var wg sync.WaitGroup
	statuses := make(chan int, 2)
	for range 2 {
		wg.Go(func() { statuses <- apitest.Do(t, h, http.MethodGet, "/api/v1/slow", "", "").Status })
	}
	<-inside
	<-inside // both slots taken
	res := apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/info", "", "")
	if res.Status != 503 || res.Code != "unavailable" || res.Header.Get("Retry-After") != "1" {
		t.Errorf("third request = %d %q, Retry-After %q; want 503 unavailable, 1", res.Status, res.Code, res.Header.Get("Retry-After"))
	}
	if res := apitest.Do(t, h, http.MethodGet, "/healthz", "", ""); res.Status != 200 {
		t.Errorf("healthz while saturated = %d, want 200", res.Status)
	}
	close(release)
	wg.Wait()
	close(statuses)
	for s := range statuses {
		if s != 200 {
			t.Errorf("held request = %d, want 200", s)
		}
	}
	if res := apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/info", "", ""); res.Status != 200 {
		t.Errorf("after release = %d, want 200 (slots returned)", res.Status)
	}
}

// TestServerLimits goes through a real listener: the server's own header
// cap and the handler's envelope answers agree.
func TestServerLimits(t *testing.T) {
	h, _, _ := limitedHandler(t, middleware.RequestLimits{MaxHeaderBytes: 2048, MaxURLBytes: 1000})
	srv := httpapi.NewServer(httpapi.Config{Addr: "127.0.0.1:0", MaxHeaderBytes: 2048}, h, slog.New(slog.DiscardHandler))
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Stop(ctx)
	})
	base := "http://" + srv.Addr()
	get := func(target string, filler int) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, base+target, nil)
		req.Header.Set("X-Filler", strings.Repeat("f", filler))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body struct {
			Code string `json:"code"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode, body.Code
	}
	if status, _ := get("/api/v1/digipin/info", 100); status != 200 {
		t.Errorf("small request = %d", status)
	}
	if status, code := get("/api/v1/digipin/info", 3000); status != 431 || code != "request_header_fields_too_large" {
		t.Errorf("headers over the cap = %d %q, want 431 in the envelope", status, code)
	}
	if status, code := get("/api/v1/digipin/info?x="+strings.Repeat("u", 1500), 0); status != 414 || code != "request_uri_too_long" {
		t.Errorf("1.5 KB URL = %d %q, want 414 in the envelope", status, code)
	}
	if status, _ := get("/api/v1/digipin/info", 100_000); status != 431 {
		t.Errorf("headers far over the cap = %d, want the server's own 431", status)
	}
}
