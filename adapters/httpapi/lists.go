package httpapi

// list returns s, or an empty list for a nil one: a list in an answer is
// never null (encoding/json writes a nil slice as null), as the OpenAPI
// documents say.
func list[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
