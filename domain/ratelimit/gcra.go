// Package ratelimit holds the rate-limit rules: a quota of N requests per
// window enforced with the generic cell rate algorithm (GCRA), which needs one
// timestamp of state per client and allows bursts up to the whole quota;
// and Slots, a cap on how many things a client has running at once.
package ratelimit

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pinsight/pinsight/domain/fault"
)

// Limit is a quota: at most Requests in any Window (bursts included).
type Limit struct {
	Requests int
	Window   time.Duration
}

// Decision is the outcome of one request against a Limit.
type Decision struct {
	Allowed   bool
	Limit     int           // the quota
	Remaining int           // requests left now (denied: how many would fit now)
	Reset     time.Duration // until the quota is whole again
	// RetryAfter, when denied: until the requests asked for are allowed
	// (one for Take, n for TakeN).
	RetryAfter time.Duration
}

// Enabled reports whether the limit restricts anything.
func (l Limit) Enabled() bool { return l.Requests > 0 && l.Window > 0 }

// String writes the limit as N/window, e.g. "600/1m0s".
func (l Limit) String() string { return strconv.Itoa(l.Requests) + "/" + l.Window.String() }

// ParseLimit reads "N/DURATION" ("600/1m", "10/30s"); "0" or "off" disables.
func ParseLimit(s string) (Limit, error) {
	s = strings.TrimSpace(s)
	if s == "0" || s == "off" {
		return Limit{}, nil
	}
	n, w, found := strings.Cut(s, "/")
	reqs, err1 := strconv.Atoi(n)
	window, err2 := time.ParseDuration(w)
	if !found || err1 != nil || err2 != nil || reqs <= 0 || window <= 0 {
		return Limit{}, fmt.Errorf("ratelimit: %q is not N/DURATION (e.g. 600/1m) or off", s)
	}
	if window/time.Duration(reqs) == 0 {
		return Limit{}, fmt.Errorf("ratelimit: %q allows more than one request per nanosecond", s)
	}
	return Limit{Requests: reqs, Window: window}, nil
}

// ErrDisabled is returned by Take for a limit that restricts nothing: a
// caller's mistake, so it is an Internal fault.
var ErrDisabled = fault.New(fault.Internal, "ratelimit: limit disabled")

// ErrTooMany is returned by TakeN for more requests at once than the limit
// allows in a whole window: they could never be allowed together. It is an
// Invalid fault: the caller asked for the impossible.
var ErrTooMany = fault.New(fault.Invalid, "ratelimit: more requests at once than the limit allows")

// Take applies one request at now to a client whose state is tat (its
// theoretical arrival time; zero for a new client). It returns the decision
// and the state to store (unchanged when denied). It is TakeN with n 1.
func (l Limit) Take(tat, now time.Time) (Decision, time.Time, error) {
	return l.TakeN(tat, now, 1)
}

// TakeN applies n requests at once (all or none) at now to a client whose
// state is tat. Allowed, they are taken together and Remaining is what is
// left after them. Denied, nothing is taken (the state is unchanged),
// RetryAfter is the wait until all n fit, and Remaining is how many fit now
// (fewer than n). n below 1 is an Internal fault; n above Requests is
// ErrTooMany.
func (l Limit) TakeN(tat, now time.Time, n int) (Decision, time.Time, error) {
	if err := l.Check(n); err != nil {
		return Decision{}, tat, err
	}
	interval, window := l.Interval(), l.Span()
	if tat.Before(now) {
		tat = now
	}
	next := tat.Add(interval * time.Duration(n))
	allowAt := next.Add(-window)
	d := Decision{Limit: l.Requests}
	if now.Before(allowAt) {
		d.RetryAfter = allowAt.Sub(now)
		d.Reset = tat.Sub(now)
		d.Remaining = min(l.RemainingAt(d.Reset), n-1)
		return d, tat, nil
	}
	d.Allowed = true
	d.Reset = next.Sub(now)
	d.Remaining = l.RemainingAt(d.Reset)
	return d, next, nil
}

// Check returns the error TakeN answers, whatever the state, for n
// requests at once: ErrDisabled, an Internal fault for n below 1,
// ErrTooMany for n above Requests; nil when n may be taken. Limiters
// deciding elsewhere check with it first.
func (l Limit) Check(n int) error {
	switch {
	case !l.Enabled():
		return ErrDisabled
	case n < 1:
		return fault.New(fault.Internal, "ratelimit: take "+strconv.Itoa(n)+" requests")
	case n > l.Requests:
		return ErrTooMany
	}
	return nil
}

// Interval is the emission interval of an enabled limit: the time in which
// one request of the quota comes back, Window/Requests truncated to the
// nanosecond (at least 1 ns, so it never divides by zero).
func (l Limit) Interval() time.Duration { return max(l.Window/time.Duration(l.Requests), 1) }

// Span is the window an enabled limit actually enforces: Requests whole
// Intervals. With the truncated Interval, Window itself could let a burst
// exceed the quota.
func (l Limit) Span() time.Duration { return l.Interval() * time.Duration(l.Requests) }

// RemainingAt is the Remaining of a decision whose Reset is reset: how
// many more requests fit now, between 0 and Requests-1.
func (l Limit) RemainingAt(reset time.Duration) int {
	return min(max(int((l.Span()-reset)/l.Interval()), 0), l.Requests-1)
}

// GiveBack returns up to n requests of one charge to a client whose state
// is tat, at now (the work they paid for turned out smaller). until is
// when that charge has all come back by itself: the state TakeN returned
// for it (the decision's Reset after the time it was taken). Only what
// has not come back by now can return, at most (until - now) / Interval
// requests, none after until; and never more than the client owes (the
// quota is never more than whole). It returns the state to store and how
// many requests came back.
func (l Limit) GiveBack(tat, until, now time.Time, n int) (time.Time, int) {
	if !l.Enabled() || n < 1 || !tat.After(now) {
		return tat, 0
	}
	interval := l.Interval()
	// until may be stored to the microsecond: a request back within one
	// of it still counts as out.
	m := min(n, int((until.Sub(now)+time.Microsecond)/interval))
	if m <= 0 {
		return tat, 0
	}
	owed := int((tat.Sub(now) + interval - 1) / interval) // whole intervals, rounded up
	if m >= owed {
		return now, owed
	}
	return tat.Add(-interval * time.Duration(m)), m
}
