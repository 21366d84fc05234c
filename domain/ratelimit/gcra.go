// Package ratelimit holds the rate-limit rule: a quota of N requests per
// window enforced with the generic cell rate algorithm (GCRA), which needs one
// timestamp of state per client and allows bursts up to the whole quota.
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
	Allowed    bool
	Limit      int           // the quota
	Remaining  int           // requests left now
	Reset      time.Duration // until the quota is whole again
	RetryAfter time.Duration // when denied: until one request is allowed
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

// Take applies one request at now to a client whose state is tat (its
// theoretical arrival time; zero for a new client). It returns the decision
// and the state to store (unchanged when denied).
func (l Limit) Take(tat, now time.Time) (Decision, time.Time, error) {
	if !l.Enabled() {
		return Decision{}, tat, ErrDisabled
	}
	interval := max(l.Window/time.Duration(l.Requests), 1) // a zero interval would divide by zero below
	// The window actually enforced is a whole number of intervals: with the
	// truncated interval, l.Window would allow a burst above the quota.
	window := interval * time.Duration(l.Requests)
	if tat.Before(now) {
		tat = now
	}
	next := tat.Add(interval)
	allowAt := next.Add(-window)
	d := Decision{Limit: l.Requests}
	if now.Before(allowAt) {
		d.RetryAfter = allowAt.Sub(now)
		d.Reset = tat.Sub(now)
		return d, tat, nil
	}
	d.Allowed = true
	d.Reset = next.Sub(now)
	d.Remaining = int((window - d.Reset) / interval)
	return d, next, nil
}
