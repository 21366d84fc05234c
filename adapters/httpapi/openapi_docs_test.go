package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
)

// servedDocument is one OpenAPI document the full API serves: its path
// and its body.
type servedDocument struct{ path, body string }

// servedDocuments serves the full API and gets both of its OpenAPI
// documents (3.1 at /openapi.json, 3.0 at /openapi-3.0.json), failing the
// test unless each answers 200.
func servedDocuments(t *testing.T) []servedDocument {
	t.Helper()
	h := apitest.NewHandler(t, fullRoutes())
	var out []servedDocument
	for _, path := range []string{"/openapi.json", "/openapi-3.0.json"} {
		res := apitest.GetPage(t, h, path)
		if res.Status != http.StatusOK {
			t.Fatalf("GET %s = %d", path, res.Status)
		}
		out = append(out, servedDocument{path, res.Body})
	}
	return out
}
