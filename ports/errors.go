package ports

import (
	"time"

	"github.com/pinsight/pinsight/domain/fault"
)

// ErrUnavailable marks a failure to reach a store's backing service (a
// database that is down, unreachable or timing out). Adapters wrap it (its
// text is what a client may read; the cause they add is not), so that it is
// a fault.Unavailable and callers may retry after UnavailableRetryAfter.
var ErrUnavailable = fault.NewRetry(fault.Unavailable, "the database is unavailable: try again shortly", UnavailableRetryAfter)

// UnavailableRetryAfter is when a store that was unavailable is worth
// trying again.
const UnavailableRetryAfter = 5 * time.Second
