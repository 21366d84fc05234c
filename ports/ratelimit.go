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
}
