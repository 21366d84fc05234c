package httpapi

import (
	_ "embed"
	"encoding/json"
	"strings"

	"github.com/danielgtaylor/huma/v2"
)

// examplesJSON holds response examples keyed "<operationId> <status>":
// the bodies the handlers answered on the test fixture, recorded by
// TestOpenAPIExamples (go test ./adapters/httpapi -run
// TestOpenAPIExamples -update-examples).
//
//go:embed openapi_examples.json
var examplesJSON []byte

// addExamples sets the example of every JSON response of api that
// examplesJSON holds one for.
func addExamples(api huma.API) {
	var examples map[string]any
	if err := json.Unmarshal(examplesJSON, &examples); err != nil {
		panic("httpapi: openapi_examples.json: " + err.Error()) // embedded: the tests read it
	}
	for _, p := range api.OpenAPI().Paths {
		for _, op := range []*huma.Operation{p.Get, p.Put, p.Post, p.Delete, p.Patch} {
			if op == nil {
				continue
			}
			for status, r := range op.Responses {
				ex, found := examples[op.OperationID+" "+status]
				if !found {
					continue
				}
				for ct, mt := range r.Content {
					if strings.HasSuffix(ct, "json") && mt.Example == nil {
						mt.Example = ex
					}
				}
			}
		}
	}
}
