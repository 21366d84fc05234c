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

// TurnTaker shares a key's quota among the parties (users) that want it,
// in turns: a RateLimiter that can implement it; callers find it by a type
// assertion and fall back to Take. For throttles that are politeness
// (every user's requests to one site count together) but must not let one
// user's backlog hold the site from the others.
type TurnTaker interface {
	// TakeTurn records one request of party against key's limit, the quota
	// Take and TakeN of key count against too, as
	// ratelimit.Limit.TakeTurn decides: a free request goes to the waiting
	// party whose turn it is (granted longest ago), so a party asking
	// again by its RetryAfter (plus ratelimit.TurnGrace) gets the next
	// request once the parties ahead of it had one each.
	TakeTurn(ctx context.Context, key, party string, limit ratelimit.Limit) (ratelimit.Decision, error)
}
