// Command openapilint lints OpenAPI documents (JSON, 3.0 or 3.1) with
// pb33f's libopenapi and libopenapi-validator, and exits 1 on any error:
// the document does not validate against the OpenAPI specification's
// schema, an example of a response does not validate against its schema,
// or a schema, operation or parameter has no description, or the document
// names no server. A 2xx JSON response (not a JSON Lines stream) without
// an example is an error with -require-examples, else only listed.
//
// Usage: openapilint [-require-examples] FILE...
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
)

// requireExamples makes a 2xx JSON response without an example an error.
var requireExamples = flag.Bool("require-examples", false, "fail on a 2xx JSON response without an example (else only list it)")

func main() {
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: openapilint [-require-examples] FILE...")
		os.Exit(2)
	}
	failed := false
	for _, path := range flag.Args() {
		problems, missing, err := lint(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", path, err)
			failed = true
			continue
		}
		if *requireExamples {
			problems = append(problems, missing...)
		} else {
			for _, m := range missing {
				fmt.Printf("%s: warning: %s\n", path, m)
			}
		}
		for _, p := range problems {
			fmt.Fprintf(os.Stderr, "%s: %s\n", path, p)
		}
		if len(problems) > 0 {
			failed = true
			continue
		}
		fmt.Printf("%s: 0 errors, %d warnings\n", path, len(missing))
	}
	if failed {
		os.Exit(1)
	}
}

// lint returns the problems of the document at path, and its 2xx JSON
// responses without an example.
func lint(path string) (problems, missing []string, err error) {
	spec, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	doc, err := libopenapi.NewDocument(spec)
	if err != nil {
		return nil, nil, err
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		return nil, nil, fmt.Errorf("validator: %v", errs)
	}
	if _, verrs := v.ValidateDocument(); len(verrs) > 0 {
		for _, e := range verrs {
			problems = append(problems, "invalid document: "+e.Error())
			for _, se := range e.SchemaValidationErrors {
				problems = append(problems, fmt.Sprintf("  at %s: %s", se.FieldPath, se.Reason))
			}
		}
	}
	model, err := doc.BuildV3Model()
	if err != nil {
		return nil, nil, fmt.Errorf("model: %w", err)
	}
	version := float32(3.1)
	if strings.HasPrefix(doc.GetVersion(), "3.0") {
		version = 3.0
	}
	more, missing := described(&model.Model, version)
	return append(problems, more...), missing, nil
}

// described returns the descriptions m lacks and the examples that do not
// validate against their schemas, and apart the 2xx JSON responses
// without an example.
func described(m *v3.Document, version float32) (problems, missing []string) {
	if len(m.Servers) == 0 {
		problems = append(problems, "no servers")
	}
	if m.Components != nil && m.Components.Schemas != nil {
		for name, s := range m.Components.Schemas.FromOldest() {
			if b := s.Schema(); b == nil || b.Description == "" {
				problems = append(problems, "schema "+name+" has no description")
			}
		}
	}
	sv := schema_validation.NewSchemaValidator()
	for p, item := range m.Paths.PathItems.FromOldest() {
		for method, op := range item.GetOperations().FromOldest() {
			where := strings.ToUpper(method) + " " + p
			if op.Description == "" {
				problems = append(problems, where+" has no description")
			}
			for _, param := range op.Parameters {
				if param.Description == "" {
					problems = append(problems, where+": parameter "+param.Name+" has no description")
				}
			}
			if op.Responses == nil || op.Responses.Codes == nil {
				continue
			}
			for code, r := range op.Responses.Codes.FromOldest() {
				if r.Content == nil {
					continue
				}
				for ct, mt := range r.Content.FromOldest() {
					if !strings.HasPrefix(code, "2") || !strings.Contains(ct, "json") || strings.Contains(ct, "jsonl") || strings.Contains(ct, "ndjson") {
						continue
					}
					at := where + " " + code + " " + ct
					if mt.Example == nil {
						missing = append(missing, at+" has no example")
						continue
					}
					var example any
					if err := mt.Example.Decode(&example); err != nil {
						problems = append(problems, at+": example: "+err.Error())
						continue
					}
					example = jsonValue(example)
					if mt.Schema == nil {
						problems = append(problems, at+" has no schema")
						continue
					}
					if ok, errs := sv.ValidateSchemaObjectWithVersion(mt.Schema.Schema(), example, version); !ok {
						for _, e := range errs {
							problems = append(problems, at+": example does not match its schema: "+e.Error())
							for _, se := range e.SchemaValidationErrors {
								problems = append(problems, fmt.Sprintf("  at %s: %s", se.FieldPath, se.Reason))
							}
						}
					}
				}
			}
		}
	}
	return problems, missing
}

// jsonValue is v as encoding/json decodes it (YAML decoding gives other
// Go types for numbers and maps).
func jsonValue(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return v
	}
	return out
}
