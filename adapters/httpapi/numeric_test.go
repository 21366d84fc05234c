package httpapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/adapters/httpapi/middleware"
	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/ports/porttest"
)

// Numbers in other notations than plain decimal, and plain ones.
var (
	loose = []string{"0x1p3", "0x10", "1_0", "+5", "1e1", "1E1", "NaN", "Inf", "Infinity", " 5", "5 ", ".5", "5.", "--5", "5-", "1.2.3", "٣"}
	plain = []string{"5", "-5", "007", "20"}
)

// TestNumericParametersPlainDecimal walks every operation of the API and
// sends each of its integer and number parameters in loose notations, which
// Go's parser used to accept (latitude=0x1p3 was 8): each is 422 on the
// parameter; plain decimal values pass the syntax check.
func TestNumericParametersPlainDecimal(t *testing.T) {
	mux := http.NewServeMux()
	api := httpapi.NewAPI(mux)
	acc := accounts.New(memory.NewAccountStore(), apitest.Passwords)
	reportStore := memory.NewReportStore()
	r := apitest.PostalRoutes(memory.NewPostalStore(porttest.PostalDataset()))
	r.Accounts, r.Reports, r.Projects = acc, reports.New(reportStore, apitest.NewFakeAnalyser(), apitest.Passwords), reports.NewProjects(reportStore)
	if err := httpapi.Register(api, r); err != nil {
		t.Fatal(err)
	}
	h := middleware.NewHandler(mux, middleware.Options{Authenticate: acc.Authenticate})
	key := apitest.Login(t, h, "ada@example.com")

	checked := map[string]bool{}
	for path, item := range api.OpenAPI().Paths {
		for method, op := range map[string]*huma.Operation{http.MethodGet: item.Get, http.MethodPost: item.Post, http.MethodPut: item.Put, http.MethodDelete: item.Delete} {
			if op == nil {
				continue
			}
			for _, p := range op.Parameters {
				if p.Schema == nil || p.Schema.Type != "integer" && p.Schema.Type != "number" {
					continue
				}
				checked[p.Name] = true
				values := append([]string(nil), loose...)
				if p.Schema.Type == "integer" {
					values = append(values, "5.0", "28.6")
				}
				for _, v := range values {
					target := withParam(path, op, p, v)
					res := apitest.Do(t, h, method, target, "", "", apitest.Bearer(key)...)
					if res.Status != http.StatusUnprocessableEntity || !strings.Contains(strings.Join(res.Errors[p.Name], " "), "plain decimal") {
						t.Errorf("%s %s = %d %v; want 422 on %s (plain decimal)", method, target, res.Status, res.Errors, p.Name)
					}
				}
				for _, v := range append(plain, map[string][]string{"number": {"28.6139", "-0.5"}}[p.Schema.Type]...) {
					target := withParam(path, op, p, v)
					if res := apitest.Do(t, h, method, target, "", "", apitest.Bearer(key)...); strings.Contains(strings.Join(res.Errors[p.Name], " "), "plain decimal") {
						t.Errorf("%s %s = %d %v; plain decimal refused", method, target, res.Status, res.Errors)
					}
				}
			}
		}
	}
	for _, name := range []string{"latitude", "longitude", "radius", "limit", "page", "per_page", "id"} {
		if !checked[name] {
			t.Errorf("no operation has a numeric parameter %q: the walk missed it", name)
		}
	}
	// The key check comes first: without a key, a loose number is 401.
	if res := apitest.Do(t, h, http.MethodGet, "/api/v1/reports?page=0x1p3", "", ""); res.Status != http.StatusUnauthorized {
		t.Errorf("loose page without a key = %d, want 401", res.Status)
	}
}

// withParam is the target of op at path with parameter p set to v and
// every other path parameter set to a plain value.
func withParam(path string, op *huma.Operation, p *huma.Param, v string) string {
	for _, other := range op.Parameters {
		if other.In == "path" {
			val := "1"
			if other == p {
				val = v
			}
			path = strings.ReplaceAll(path, "{"+other.Name+"}", url.PathEscape(val))
		}
	}
	if p.In == "query" {
		path += "?" + url.Values{p.Name: {v}}.Encode()
	}
	return path
}

// TestFormNumbersPlainDecimal: form bodies follow the same notation; JSON
// bodies take standard JSON numbers.
func TestFormNumbersPlainDecimal(t *testing.T) {
	h := apitest.NewHandler(t, httpapi.Routes{})
	for _, v := range loose {
		if strings.TrimSpace(v) != v {
			continue // forms trim spaces around values
		}
		res := apitest.Do(t, h, http.MethodPost, "/api/v1/digipin/encode", apitest.FormType, url.Values{"latitude": {v}, "longitude": {"77.2"}}.Encode())
		if res.Status != http.StatusUnprocessableEntity || !strings.Contains(strings.Join(res.Errors["latitude"], " "), "plain decimal") {
			t.Errorf("form latitude=%q = %d %v; want 422 on latitude (plain decimal)", v, res.Status, res.Errors)
		}
	}
	for _, form := range []string{"latitude=28.6&longitude=77.2", "latitude=%2028.6%20&longitude=077.20"} {
		if res := apitest.Do(t, h, http.MethodPost, "/api/v1/digipin/encode", apitest.FormType, form); res.Status != http.StatusOK {
			t.Errorf("form %q = %d %v, want 200", form, res.Status, res.Errors)
		}
	}
	if res := apitest.Do(t, h, http.MethodPost, "/api/v1/digipin/encode", apitest.JSONType, `{"latitude":2.86e1,"longitude":77.2}`); res.Status != http.StatusOK {
		t.Errorf("JSON exponent = %d %v, want 200 (standard JSON)", res.Status, res.Errors)
	}
}
