package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
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

// TestOpenAPINullObjects: the object fields the API answers as null refer
// to a schema that allows null: type ["object","null"] in the 3.1
// document, nullable in the 3.0 one.
func TestOpenAPINullObjects(t *testing.T) {
	fields := map[string][]string{ // schema: its fields that may be null
		"OfficeData":   {"location"},
		"EndpointData": {"post_office"},
		"ChangeData":   {"from", "to"},
		"ChangesData":  {"since"},
	}
	for _, d := range servedDocuments(t) {
		var doc struct {
			Components struct {
				Schemas map[string]struct {
					Type       any                        `json:"type"`
					Nullable   bool                       `json:"nullable"`
					Properties map[string]json.RawMessage `json:"properties"`
				} `json:"schemas"`
			} `json:"components"`
		}
		if err := json.Unmarshal([]byte(d.body), &doc); err != nil {
			t.Fatalf("%s: %v", d.path, err)
		}
		schemas := doc.Components.Schemas
		for name, props := range fields {
			for _, p := range props {
				var prop struct {
					Ref string `json:"$ref"`
				}
				_ = json.Unmarshal(schemas[name].Properties[p], &prop)
				target, found := schemas[strings.TrimPrefix(prop.Ref, "#/components/schemas/")]
				nullable := target.Nullable || fmt.Sprint(target.Type) == "[object null]"
				if !found || !nullable {
					t.Errorf("%s: %s.%s refers to %q (type %v, nullable %v), want an object schema allowing null",
						d.path, name, p, prop.Ref, target.Type, target.Nullable)
				}
			}
		}
	}
}
