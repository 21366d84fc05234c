package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
)

func TestRoutingErrors(t *testing.T) {
	h := apitest.NewHandler(t, httpapi.Routes{})
	res := apitest.Do(t, h, http.MethodGet, "/api/v1/nope", "", "")
	if res.Status != http.StatusNotFound || res.Code != "not_found" {
		t.Errorf("unknown route = %d %q, want 404 not_found", res.Status, res.Code)
	}
	res = apitest.Do(t, h, http.MethodDelete, "/api/v1/digipin/info", "", "")
	if res.Status != http.StatusMethodNotAllowed || res.Header.Get("Allow") == "" || res.Code != "method_not_allowed" {
		t.Errorf("wrong method = %d, Allow %q, want 405 with Allow", res.Status, res.Header.Get("Allow"))
	}
	if res := apitest.Do(t, h, http.MethodHead, "/api/v1/digipin/info", "", ""); res.Status != http.StatusOK {
		t.Errorf("HEAD info = %d, want 200", res.Status)
	}
	res = apitest.Do(t, h, http.MethodPost, "/api/v1/digipin/encode", "text/plain", "x")
	if res.Status != http.StatusUnsupportedMediaType {
		t.Errorf("text/plain body = %d, want 415", res.Status)
	}
}
