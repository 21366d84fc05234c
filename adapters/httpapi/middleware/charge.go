package middleware

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"slices"

	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports"
)

// Bulk-file operations: their requests are charged against the default
// quota as their rows arrive (see Charge), besides the one request the
// edge charges.
const (
	BulkPincodesPath = APIPrefix + "/pincodes/bulk"
	BulkDigipinPath  = APIPrefix + "/digipin/bulk"
)

// metered reports whether a request may charge more with Charge: a POST
// of a bulk-file operation or at one of paths (Options.Metered).
func metered(r *http.Request, paths []string) bool {
	return r.Method == http.MethodPost &&
		(r.URL.Path == BulkPincodesPath || r.URL.Path == BulkDigipinPath || slices.Contains(paths, r.URL.Path))
}

type chargeKey struct{}

// charger takes more requests from the quota that admitted a request.
type charger func(n int) ratelimit.Decision

// withCharger lets the handler of r charge n more requests against key's
// limit; a limiter error lets the request go on (fail open, as the edge).
func withCharger(r *http.Request, limiter ports.RateLimiter, key string, limit ratelimit.Limit, log *slog.Logger, m *Metrics, quota string) *http.Request {
	c := charger(func(n int) ratelimit.Decision {
		d, err := limiter.TakeN(r.Context(), key, limit, n)
		if errors.Is(err, ratelimit.ErrTooMany) { // more than a whole window: never allowed
			m.rateDecision(quota, "limited")
			return ratelimit.Decision{Limit: limit.Requests, RetryAfter: limit.Span()}
		}
		if err != nil {
			log.WarnContext(r.Context(), "rate limiter failed", "err", err)
			m.rateDecision(quota, "error")
			return ratelimit.Decision{Allowed: true}
		}
		if d.Allowed {
			m.rateDecision(quota, "allowed")
		} else {
			m.rateDecision(quota, "limited")
		}
		return d
	})
	return r.WithContext(context.WithValue(r.Context(), chargeKey{}, c))
}

// Charge counts n more requests against the quota that admitted the
// request of ctx (a bulk-file operation's, see BulkPincodesPath, or one
// at a path of Options.Metered): the
// decision says whether they fit. Without a quota (none configured, or
// another operation) every charge is allowed.
func Charge(ctx context.Context, n int) ratelimit.Decision {
	if c, ok := ctx.Value(chargeKey{}).(charger); ok {
		return c(n)
	}
	return ratelimit.Decision{Allowed: true}
}
