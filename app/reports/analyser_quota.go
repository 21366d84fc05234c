package reports

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
)

// userSlots counts each user's analyses running in this process.
type userSlots struct {
	mu      sync.Mutex
	max     int // negative: no cap
	running map[int64]int
}

func newUserSlots(max int) *userSlots { return &userSlots{max: max, running: map[int64]int{}} }

// acquire takes one of user's slots, or returns the QuotaError saying they
// are all taken; release gives it back.
func (s *userSlots) acquire(user int64) (release func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.max >= 0 && s.running[user] >= s.max {
		return nil, &QuotaError{Limit: s.max, Wait: BusyRetryAfter}
	}
	s.running[user]++
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.running[user]--; s.running[user] <= 0 {
			delete(s.running, user)
		}
	}, nil
}

// takeDaily takes one analysis from the user's daily quota. It is keyed on
// the user, not the API key, so new keys do not reset it. A failing limiter
// lets the analysis through (logged) rather than take the feature down.
func (a *Analyser) takeDaily(ctx context.Context, user int64) error {
	if a.limiter == nil || !a.daily.Enabled() {
		return nil
	}
	d, err := a.limiter.Take(ctx, "analyses-user:"+strconv.FormatInt(user, 10), a.daily)
	if err != nil {
		slog.WarnContext(ctx, "analysis quota unavailable; analysing anyway", "user", user, "err", err)
		return nil
	}
	if !d.Allowed {
		return &QuotaError{Daily: true, Limit: a.daily.Requests, Wait: d.RetryAfter}
	}
	return nil
}
