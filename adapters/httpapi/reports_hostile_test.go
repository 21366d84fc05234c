package httpapi_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app"
)

// TestReportsHostileInput sends the hostile values to every parameter and
// body field of the report and project operations, and to the public page:
// never a 500, always an envelope on the API.
func TestReportsHostileInput(t *testing.T) {
	mux := http.NewServeMux()
	api := httpapi.NewAPI(mux)
	store := memory.NewReportStore()
	an := newFakeAnalyser()
	httpapi.Register(api, httpapi.Routes{Health: app.NewHealth(nil),
		Accounts: app.NewAccounts(memory.NewAccountStore(), testPasswords),
		Reports:  app.NewReports(store, an, testPasswords), Projects: app.NewProjects(store)})
	h := httpapi.NewHandler(mux, httpapi.HandlerOptions{})
	token := login(t, h, "hostile@example.com")
	do(t, h, http.MethodPost, "/api/v1/reports", formType, "url=https://a.com/&privacy=2&password=pw", bearer(token)...)

	var paths []string
	for p := range api.OpenAPI().Paths {
		if strings.HasPrefix(p, "/api/v1/reports") || strings.HasPrefix(p, "/api/v1/projects") {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	if len(paths) != 4 {
		t.Fatalf("site-analysis paths = %v", paths)
	}
	for _, path := range paths {
		item := api.OpenAPI().Paths[path]
		for method, op := range map[string]*huma.Operation{"GET": item.Get, "POST": item.Post, "PUT": item.Put, "DELETE": item.Delete} {
			if op == nil {
				continue
			}
			for _, v := range hostileValues {
				target, _ := hostileRequest(path, op, v)
				for _, body := range []map[string]any{{"url": v, "privacy": v, "password": v, "results": v}, {"url": "https://a.com/" + url.PathEscape(v), "privacy": 2, "password": v}} {
					raw, _ := json.Marshal(body)
					checkHostile(t, h, method, target, jsonType, string(raw), token)
				}
				checkHostile(t, h, method, target, formType, "url="+url.QueryEscape(v)+"&privacy="+url.QueryEscape(v)+"&results="+url.QueryEscape(v), token)
			}
		}
	}
	for _, v := range hostileValues {
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			req := httptest.NewRequest(method, "/reports/1", strings.NewReader("password="+url.QueryEscape(v)))
			req.URL.Path = "/reports/" + v
			req.Header.Set("Content-Type", formType)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code >= 500 {
				t.Errorf("%s /reports/%.40q = %d", method, v, rec.Code)
			}
		}
	}
	if res := do(t, h, http.MethodGet, "/api/v1/reports", "", "", bearer(token)...); res.Status != 200 {
		t.Errorf("list after hostile input = %d", res.Status)
	}
}
