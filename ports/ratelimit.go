package ports

import (
	"context"

	"github.com/pinsight/pinsight/domain/ratelimit"
)

// RateLimiter counts requests per client key. A shared implementation
// (Redis, Postgres) lets several instances enforce one quota.
type RateLimiter interface {
	// Take records one request of key against limit and returns the decision.
	Take(ctx context.Context, key string, limit ratelimit.Limit) (ratelimit.Decision, error)
	// TakeN records n requests of key at once, all or none, as
	// ratelimit.Limit.TakeN decides: denied, nothing is recorded, RetryAfter
	// is the wait until all n fit and Remaining how many fit now. n above
	// limit.Requests is ratelimit.ErrTooMany. TakeN with n 1 is Take.
	TakeN(ctx context.Context, key string, limit ratelimit.Limit, n int) (ratelimit.Decision, error)
}
