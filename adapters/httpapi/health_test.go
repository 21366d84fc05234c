package httpapi_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/app/health"
)

func TestHealth(t *testing.T) {
	h := apitest.NewHandler(t, httpapi.Routes{})
	if res := apitest.Do(t, h, http.MethodGet, "/healthz", "", ""); res.Status != http.StatusOK {
		t.Errorf("GET /healthz = %d, want 200", res.Status)
	}
	up := health.Component{Name: "db", Check: func(context.Context) error { return nil },
		Describe: func(context.Context) string { return "serving db 1" }}
	down := health.Component{Name: "postal_data", Check: func(context.Context) error { return errors.New("not loaded") }}

	res := apitest.Do(t, apitest.NewHandler(t, httpapi.Routes{Health: health.New([]health.Component{up})}), http.MethodGet, "/readyz", "", "")
	var d httpapi.ReadyData
	res.Decode(t, &d)
	if res.Status != http.StatusOK || !d.Ready || len(d.Components) != 1 || d.Components[0].Name != "db" || d.Components[0].Detail != "serving db 1" {
		t.Errorf("GET /readyz (all up) = %d %+v, want 200 listing db with what it serves", res.Status, d)
	}
	if d.Version != "" || strings.Contains(string(res.Data), `"version"`) {
		t.Errorf("GET /readyz without Routes.Version shows a version: %s", res.Data)
	}
	res = apitest.Do(t, apitest.NewHandler(t, httpapi.Routes{Health: health.New([]health.Component{up}), Version: "v1.2.3 (commit 0123456789ab)"}), http.MethodGet, "/readyz", "", "")
	d = httpapi.ReadyData{}
	res.Decode(t, &d)
	if res.Status != http.StatusOK || d.Version != "v1.2.3 (commit 0123456789ab)" {
		t.Errorf("GET /readyz with Routes.Version = %d %+v, want the build's version", res.Status, d)
	}
	res = apitest.Do(t, apitest.NewHandler(t, httpapi.Routes{Health: health.New([]health.Component{up, down})}), http.MethodGet, "/readyz", "", "")
	if res.Status != http.StatusServiceUnavailable || res.Code != "unavailable" || len(res.Errors["postal_data"]) != 1 || res.Errors["db"] != nil {
		t.Errorf("GET /readyz (one down) = %d %q %v, want 503 naming postal_data only", res.Status, res.Code, res.Errors)
	}

	// /readyz/reads checks the components the public reads need alone.
	dbDown := health.Component{Name: "database", Check: func(context.Context) error { return errors.New("paused") }}
	postalUp := health.Component{Name: "postal_data", Reads: true, Check: func(context.Context) error { return nil }}
	res = apitest.Do(t, apitest.NewHandler(t, httpapi.Routes{Health: health.New([]health.Component{dbDown, postalUp})}), http.MethodGet, "/readyz/reads", "", "")
	d = httpapi.ReadyData{}
	res.Decode(t, &d)
	if res.Status != http.StatusOK || !d.Ready || len(d.Components) != 1 || d.Components[0].Name != "postal_data" {
		t.Errorf("GET /readyz/reads (database down) = %d %+v, want 200 listing postal_data alone", res.Status, d)
	}
	down.Reads = true
	res = apitest.Do(t, apitest.NewHandler(t, httpapi.Routes{Health: health.New([]health.Component{up, down})}), http.MethodGet, "/readyz/reads", "", "")
	if res.Status != http.StatusServiceUnavailable || len(res.Errors["postal_data"]) != 1 || res.Header.Get("Retry-After") == "" {
		t.Errorf("GET /readyz/reads (postal data down) = %d %v %v, want 503 with Retry-After naming postal_data", res.Status, res.Errors, res.Header)
	}
}

// TestReadyzStalledAndLeaks: a stalled component (a paused database) makes
// /readyz answer 503 with Retry-After once its check times out, and no
// answer carries the raw driver error; degraded components answer 200.
func TestReadyzStalledAndLeaks(t *testing.T) {
	stall := make(chan struct{})
	t.Cleanup(func() { close(stall) })
	raw := errors.New("dial tcp 10.0.3.7:5432: user=pinsight database=prod: connection refused")
	for _, tc := range []struct {
		name   string
		c      health.Component
		status int
	}{
		{"stalled", health.Component{Name: "database", Timeout: 50 * time.Millisecond, Check: func(context.Context) error { <-stall; return nil }}, 503},
		{"driver error", health.Component{Name: "database", Check: func(context.Context) error { return raw }}, 503},
		{"degraded", health.Component{Name: "cache", Check: func(context.Context) error { return fmt.Errorf("%w: %w", health.ErrDegraded, raw) }}, 200},
	} {
		h := apitest.NewHandler(t, httpapi.Routes{Health: health.New([]health.Component{tc.c})})
		req := httptest.NewRequest(http.MethodGet, "/readyz", nil)
		rec := httptest.NewRecorder()
		served := make(chan struct{})
		go func() { h.ServeHTTP(rec, req); close(served) }()
		select {
		case <-served:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: /readyz has not answered within 10 s", tc.name)
		}
		if rec.Code != tc.status || tc.status == 503 && rec.Header().Get("Retry-After") == "" {
			t.Errorf("%s: /readyz = %d, Retry-After %q; want %d (with Retry-After if 503)", tc.name, rec.Code, rec.Header().Get("Retry-After"), tc.status)
		}
		if body := rec.Body.String(); strings.Contains(body, "10.0.3.7") || strings.Contains(body, "pinsight") || strings.Contains(body, "prod") {
			t.Errorf("%s: /readyz leaks the driver error: %s", tc.name, body)
		}
	}
}
