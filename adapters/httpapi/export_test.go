package httpapi

// ToHTTP exposes the error mapping to the external tests.
func ToHTTP(err error) error { return toHTTP(err) }
