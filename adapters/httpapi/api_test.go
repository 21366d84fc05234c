package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/app/health"
)

// newHandler builds the production handler with the given routes.
func newHandler(t *testing.T, r httpapi.Routes) http.Handler {
	t.Helper()
	if r.Health == nil {
		r.Health = health.New(nil)
	}
	mux := http.NewServeMux()
	httpapi.Register(httpapi.NewAPI(mux), r)
	return httpapi.NewHandler(mux, httpapi.HandlerOptions{})
}

// response is a decoded envelope.
type response struct {
	Status  int
	Header  http.Header
	Success bool                `json:"success"`
	Code    string              `json:"code"`
	Message string              `json:"message"`
	Errors  map[string][]string `json:"errors"`
	Data    json.RawMessage     `json:"data"`
}

func do(t *testing.T, h http.Handler, method, target, contentType, body string, headers ...string) response {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	res := response{Status: rec.Code, Header: rec.Header()}
	raw, _ := io.ReadAll(rec.Body)
	if method == http.MethodHead {
		return res
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("%s %s: body is not JSON: %v: %s", method, target, err, raw)
	}
	if res.Success != (res.Status < 400) {
		t.Fatalf("%s %s: status %d with success=%v", method, target, res.Status, res.Success)
	}
	return res
}

// data decodes the envelope's data into v.
func (r response) data(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Data, v); err != nil {
		t.Fatalf("data: %v: %s", err, r.Data)
	}
}

const jsonType = "application/json"

func TestRoutingErrors(t *testing.T) {
	h := newHandler(t, httpapi.Routes{})
	res := do(t, h, http.MethodGet, "/api/v1/nope", "", "")
	if res.Status != http.StatusNotFound || res.Code != "not_found" {
		t.Errorf("unknown route = %d %q, want 404 not_found", res.Status, res.Code)
	}
	res = do(t, h, http.MethodDelete, "/api/v1/digipin/info", "", "")
	if res.Status != http.StatusMethodNotAllowed || res.Header.Get("Allow") == "" || res.Code != "method_not_allowed" {
		t.Errorf("wrong method = %d, Allow %q, want 405 with Allow", res.Status, res.Header.Get("Allow"))
	}
	if res := do(t, h, http.MethodHead, "/api/v1/digipin/info", "", ""); res.Status != http.StatusOK {
		t.Errorf("HEAD info = %d, want 200", res.Status)
	}
	res = do(t, h, http.MethodPost, "/api/v1/digipin/encode", "text/plain", "x")
	if res.Status != http.StatusUnsupportedMediaType {
		t.Errorf("text/plain body = %d, want 415", res.Status)
	}
}
