package httpapi

// ToHTTP exposes the error mapping to the external tests.
func ToHTTP(err error) error { return toHTTP(err) }

// RouteGroups exposes, by the Routes field that serves them, the
// operations of each group that needs other use cases.
func RouteGroups(r Routes) map[string][]string {
	out := map[string][]string{}
	for _, g := range r.groups() {
		out[g.field] = g.ops
	}
	return out
}
