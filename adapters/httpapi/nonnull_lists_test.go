package httpapi_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"testing"
)

// TestListsNeverNullInOpenAPI walks the whole of both served documents
// (3.1 and 3.0) and fails on any array schema that admits null: lists in
// requests and responses are never null, and clients generated from the
// documents must not have to nil-check them.
func TestListsNeverNullInOpenAPI(t *testing.T) {
	for _, d := range servedDocuments(t) {
		path := d.path
		var doc any
		if err := json.Unmarshal([]byte(d.body), &doc); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		arrays := 0
		var nullable []string
		walkSchemas(doc, "#", func(at string, s map[string]any) {
			if !isArray(s) {
				return
			}
			arrays++
			if admitsNull(s) {
				nullable = append(nullable, at)
			}
		})
		sort.Strings(nullable)
		if arrays < 30 {
			t.Errorf("%s: only %d array schemas found: the walk missed the document", path, arrays)
		}
		for _, at := range nullable {
			t.Errorf("%s: array may be null at %s", path, at)
		}
	}
}

// walkSchemas calls f on every JSON object under v with its JSON pointer.
func walkSchemas(v any, at string, f func(at string, s map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		f(at, x)
		for k, c := range x {
			walkSchemas(c, at+"/"+k, f)
		}
	case []any:
		for i, c := range x {
			walkSchemas(c, fmt.Sprintf("%s/%d", at, i), f)
		}
	}
}

// isArray reports whether s is a schema of type array (alone or in a
// 3.1 type list).
func isArray(s map[string]any) bool {
	switch t := s["type"].(type) {
	case string:
		return t == "array"
	case []any:
		return slices.Contains(t, any("array"))
	}
	return false
}

// admitsNull reports whether a schema admits null: 3.0's nullable, 3.1's
// "null" among its types, or a null branch of its oneOf or anyOf.
func admitsNull(s map[string]any) bool {
	if n, _ := s["nullable"].(bool); n {
		return true
	}
	if t, ok := s["type"].([]any); ok && slices.Contains(t, any("null")) {
		return true
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		branches, _ := s[k].([]any)
		for _, b := range branches {
			if m, ok := b.(map[string]any); ok && m["type"] == "null" {
				return true
			}
		}
	}
	return false
}
