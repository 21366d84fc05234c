package memory

import (
	"context"
	"sync"
	"time"

	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/ports"
)

// RateLimiter keeps each client's GCRA state in memory, in shards so that
// concurrent clients rarely contend.
type RateLimiter struct {
	shards [64]limiterShard
	now    func() time.Time
}

type limiterShard struct {
	mu       sync.Mutex
	tat      map[string]time.Time
	turns    map[string]map[string]ratelimit.Party // TakeTurn's parties per key
	receipts map[string]time.Time                  // GiveBack's receipts used, until they expire
	sweep    time.Time
}

// NewRateLimiter returns an empty limiter using the wall clock.
func NewRateLimiter() *RateLimiter {
	return NewRateLimiterWithClock(time.Now)
}

// NewRateLimiterWithClock returns an empty limiter reading time from now.
func NewRateLimiterWithClock(now func() time.Time) *RateLimiter {
	l := &RateLimiter{now: now}
	for i := range l.shards {
		l.shards[i].tat, l.shards[i].receipts = map[string]time.Time{}, map[string]time.Time{}
		l.shards[i].turns = map[string]map[string]ratelimit.Party{}
	}
	return l
}

// Take implements ports.RateLimiter.
func (l *RateLimiter) Take(ctx context.Context, key string, limit ratelimit.Limit) (ratelimit.Decision, error) {
	return l.TakeN(ctx, key, limit, 1)
}

// TakeN implements ports.RateLimiter.
func (l *RateLimiter) TakeN(_ context.Context, key string, limit ratelimit.Limit, n int) (ratelimit.Decision, error) {
	now := l.now()
	s := &l.shards[fnv32(key)%uint32(len(l.shards))]
	s.mu.Lock()
	defer s.mu.Unlock()
	d, tat, err := limit.TakeN(s.tat[key], now, n)
	if err != nil {
		return d, err
	}
	s.tat[key] = tat
	if now.Sub(s.sweep) > time.Minute {
		s.evictIdle(now)
	}
	return d, nil
}

// TakeTurn implements ports.TurnTaker on the quota state TakeN keeps.
func (l *RateLimiter) TakeTurn(_ context.Context, key, party string, limit ratelimit.Limit) (ratelimit.Decision, error) {
	now := l.now()
	s := &l.shards[fnv32(key)%uint32(len(l.shards))]
	s.mu.Lock()
	defer s.mu.Unlock()
	parties := s.turns[key]
	if parties == nil {
		parties = map[string]ratelimit.Party{}
		s.turns[key] = parties
	}
	d, tat, err := limit.TakeTurn(s.tat[key], parties, party, now)
	if err != nil {
		return d, err
	}
	s.tat[key] = tat
	if now.Sub(s.sweep) > time.Minute {
		s.evictIdle(now)
	}
	return d, nil
}

// GiveBack implements ports.QuotaReturner; its receipts are kept per key.
func (l *RateLimiter) GiveBack(_ context.Context, key string, limit ratelimit.Limit, n int, until time.Time, receipt string) (int, error) {
	now := l.now()
	s := &l.shards[fnv32(key)%uint32(len(l.shards))]
	s.mu.Lock()
	defer s.mu.Unlock()
	r := key + "\x00" + receipt
	if used, ok := s.receipts[r]; ok && used.After(now) {
		return 0, nil
	}
	tat, back := limit.GiveBack(s.tat[key], until, now, n)
	if back > 0 {
		s.tat[key] = tat
	}
	if until.After(now) {
		s.receipts[r] = until
	}
	return back, nil
}

// evictIdle forgets clients whose quota is whole again: their state equals a
// new client's, so memory stays bounded by the clients active in a window;
// and the parties of such a key when none is waiting.
func (s *limiterShard) evictIdle(now time.Time) {
	for k, parties := range s.turns {
		if !s.tat[k].After(now) && !waiting(parties, now) {
			delete(s.turns, k) // the quota whole and no one waiting: any turn is fair
		}
	}
	for k, tat := range s.tat {
		if !tat.After(now) {
			delete(s.tat, k)
		}
	}
	for r, until := range s.receipts {
		if !until.After(now) {
			delete(s.receipts, r)
		}
	}
	s.sweep = now
}

// waiting reports whether a party of a key holds a claim to a turn.
func waiting(parties map[string]ratelimit.Party, now time.Time) bool {
	for _, p := range parties {
		if p.Until.After(now) {
			return true
		}
	}
	return false
}

func fnv32(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return h
}

// Interface guards.
var (
	_ ports.RateLimiter   = (*RateLimiter)(nil)
	_ ports.QuotaReturner = (*RateLimiter)(nil)
	_ ports.TurnTaker     = (*RateLimiter)(nil)
)
