package httpapi_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// openapiOut names a folder TestOpenAPIDescribed writes both served
// documents to (openapi.json, openapi-3.0.json), for the linter .ci/run
// runs on them (tools/openapilint).
var openapiOut = flag.String("openapi-out", "", "write the served OpenAPI documents to this folder")

// Every schema, operation and parameter of both OpenAPI documents has a
// description, and the document names a server, so tools show more than
// bare names.
func TestOpenAPIDescribed(t *testing.T) {
	for _, d := range servedDocuments(t) {
		path := d.path
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
		if err := json.Unmarshal([]byte(d.body), &doc); err != nil {
			t.Fatal(err)
		}
		if *openapiOut != "" {
			if err := os.WriteFile(filepath.Join(*openapiOut, filepath.Base(path)), []byte(d.body), 0o644); err != nil {
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
