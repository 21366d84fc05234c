package httpapi_test

import (
	"encoding/json"
	"testing"
)

// Every tag an operation of the full API uses is listed at the top of the
// OpenAPI document with a description, so tools show described sections.
func TestOpenAPITagsDescribed(t *testing.T) {
	for _, d := range servedDocuments(t) {
		path := d.path
		var doc struct {
			Tags []struct {
				Name        string `json:"name"`
				Description string `json:"description"`
			} `json:"tags"`
			Paths map[string]map[string]struct {
				Tags []string `json:"tags"`
			} `json:"paths"`
		}
		if err := json.Unmarshal([]byte(d.body), &doc); err != nil {
			t.Fatal(err)
		}
		described := map[string]bool{}
		for _, tag := range doc.Tags {
			described[tag.Name] = tag.Description != ""
		}
		for p, ops := range doc.Paths {
			for method, op := range ops {
				if len(op.Tags) == 0 {
					t.Errorf("%s: %s %s has no tag", path, method, p)
				}
				for _, tag := range op.Tags {
					if !described[tag] {
						t.Errorf("%s: %s %s's tag %q is not a described top-level tag", path, method, p, tag)
					}
				}
			}
		}
	}
}
