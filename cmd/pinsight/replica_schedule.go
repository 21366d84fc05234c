package main

import (
	"math/rand/v2"
	"time"
)

// Bounds of the waits between failed reloads of the postal replica.
const (
	reloadRetryMin = time.Second
	reloadRetryMax = time.Minute
)

// reloadSchedule decides how long the postal replica waits before reading
// the database's directory: a random delay within spread before loading a
// new generation (the reloads of a fleet, all told of an import at once,
// spread over that window instead of all starting together), and after a
// failure a backoff doubling from reloadRetryMin to reloadRetryMax (plus
// that delay), so a database that cannot serve the read is not asked for
// the whole directory again every few seconds.
type reloadSchedule struct {
	spread  time.Duration
	randN   func(n int64) int64 // a uniform draw in [0, n); rand.Int64N unless a test sets it
	backoff time.Duration       // the last failure's; 0 after a success
}

func newReloadSchedule(spread time.Duration) *reloadSchedule {
	return &reloadSchedule{spread: max(spread, 0), randN: rand.Int64N}
}

// delay is the wait before loading a generation announced now.
func (s *reloadSchedule) delay() time.Duration {
	if s.spread <= 0 {
		return 0
	}
	return time.Duration(s.randN(int64(s.spread)))
}

// failed records a failed load and returns the wait before the next one.
func (s *reloadSchedule) failed() time.Duration {
	s.backoff = min(max(2*s.backoff, reloadRetryMin), reloadRetryMax)
	return s.backoff + s.delay()
}

// succeeded records a load that succeeded: the next failure waits
// reloadRetryMin again.
func (s *reloadSchedule) succeeded() { s.backoff = 0 }
