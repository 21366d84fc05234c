package ports

import (
	"context"
	"time"

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

// QuotaReturner gives requests back to a quota, for work charged in
// advance that turned out smaller (a crawl's unused pages). RateLimiters
// that can implement it; callers find it by a type assertion.
type QuotaReturner interface {
	// GiveBack returns up to n requests of one charge of key against
	// limit, as ratelimit.Limit.GiveBack decides (until: when that charge
	// has all come back by itself), once per receipt: a call with a
	// receipt already used (until until) returns nothing. It answers how
	// many came back.
	GiveBack(ctx context.Context, key string, limit ratelimit.Limit, n int, until time.Time, receipt string) (int, error)
}
