package httpapi_test

import (
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
)

// openapiOut names a folder TestOpenAPIDescribed writes both served
// documents to (openapi.json, openapi-3.0.json), for the linter .ci/run
// runs on them (tools/openapilint).
var openapiOut = flag.String("openapi-out", "", "write the served OpenAPI documents to this folder")

// Every schema, operation and parameter of both OpenAPI documents has a
// description, and the document names a server, so tools show more than
// bare names.
func TestOpenAPIDescribed(t *testing.T) {
	h := apitest.NewHandler(t, fullRoutes())
	for _, path := range []string{"/openapi.json", "/openapi-3.0.json"} {
		res := apitest.GetPage(t, h, path)
		if res.Status != http.StatusOK {
			t.Fatalf("GET %s = %d", path, res.Status)
		}
		type described struct {
			Name        string `json:"name"`
			Description string `json:"description"`
		}
		var doc struct {
			Servers    []struct{ URL string } `json:"servers"`
			Components struct {
				Schemas map[string]described `json:"schemas"`
			} `json:"components"`
			Paths map[string]map[string]struct {
				Description string      `json:"description"`
				Parameters  []described `json:"parameters"`
			} `json:"paths"`
		}
		if err := json.Unmarshal([]byte(res.Body), &doc); err != nil {
			t.Fatal(err)
		}
		if *openapiOut != "" {
			if err := os.WriteFile(filepath.Join(*openapiOut, filepath.Base(path)), []byte(res.Body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if len(doc.Servers) == 0 || doc.Servers[0].URL != "/" {
			t.Errorf("%s: servers = %+v, want / first", path, doc.Servers)
		}
		if len(doc.Components.Schemas) == 0 {
			t.Fatalf("%s: no schemas", path)
		}
		for name, s := range doc.Components.Schemas {
			if s.Description == "" {
				t.Errorf("%s: schema %s has no description (schemaDescriptions in schemadocs.go)", path, name)
			}
		}
		for p, ops := range doc.Paths {
			for method, op := range ops {
				if op.Description == "" {
					t.Errorf("%s: %s %s has no description", path, method, p)
				}
				for _, param := range op.Parameters {
					if param.Description == "" {
						t.Errorf("%s: %s %s: parameter %s has no description", path, method, p, param.Name)
					}
				}
			}
		}
	}
}
