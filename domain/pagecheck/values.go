package pagecheck

// Check values use only the types encoding/json decodes into (string,
// float64, bool, nil, []any, map[string]any), so a stored report reads back
// deep-equal to the fresh one. Checks build them whole; pass and fail bound
// them (bound.go).

// num is an integer as a JSON number.
func num(n int) any { return float64(n) }

// list is strings as a JSON array (bounded with the check).
func list(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// orNil is s, or nil when s is empty.
func orNil(s string) any {
	if s == "" {
		return nil
	}
	return s
}
