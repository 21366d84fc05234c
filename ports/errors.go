package ports

import "errors"

// ErrUnavailable marks a failure to reach a store's backing service (a
// database that is down, unreachable or timing out). Adapters wrap it so
// that transports answer 503 instead of 500, and callers may retry later.
var ErrUnavailable = errors.New("storage unavailable")
