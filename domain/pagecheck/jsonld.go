package pagecheck

import (
	"encoding/json"
	"strings"

	"github.com/pinsight/pinsight/domain/webpage"
)

// isJSONLD reports whether a <script> holds JSON-LD.
func isJSONLD(s *webpage.Node) bool {
	mt, _, _ := strings.Cut(attr(s, "type"), ";")
	return strings.EqualFold(strings.TrimSpace(mt), "application/ld+json")
}

// jsonLDProblems lists what keeps one JSON-LD block from being read as
// structured data, as failure codes: "invalid_json" when it does not parse;
// otherwise "missing_context" when a top-level item (an object, or each
// object of a top-level array) has no @context, and "missing_type" when
// such an item has neither an @type nor an @graph, or an item of its
// @graph has no @type. Nested values are not checked.
func jsonLDProblems(text string) []string {
	var v any
	if err := json.Unmarshal([]byte(strings.TrimSpace(text)), &v); err != nil {
		return []string{"invalid_json"}
	}
	var codes codeList
	items, ok := v.([]any)
	if !ok {
		items = []any{v}
	}
	if len(items) == 0 {
		codes.add("missing_type")
	}
	for _, it := range items {
		obj, ok := it.(map[string]any)
		if !ok {
			codes.add("missing_type")
			continue
		}
		if c, ok := obj["@context"]; !ok || c == nil || c == "" {
			codes.add("missing_context")
		}
		graph, hasGraph := obj["@graph"]
		switch {
		case hasGraph:
			nodes, ok := graph.([]any)
			if !ok {
				nodes = []any{graph}
			}
			if len(nodes) == 0 {
				codes.add("missing_type")
			}
			for _, n := range nodes {
				if o, ok := n.(map[string]any); !ok || !hasType(o) {
					codes.add("missing_type")
				}
			}
		case !hasType(obj):
			codes.add("missing_type")
		}
	}
	return codes
}

// hasType reports whether a JSON-LD node has a non-empty @type: a name or
// a list of names.
func hasType(o map[string]any) bool {
	switch t := o["@type"].(type) {
	case string:
		return strings.TrimSpace(t) != ""
	case []any:
		for _, x := range t {
			if s, ok := x.(string); !ok || strings.TrimSpace(s) == "" {
				return false
			}
		}
		return len(t) > 0
	}
	return false
}
