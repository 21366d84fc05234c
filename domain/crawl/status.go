package crawl

import "github.com/pinsight/pinsight/domain/fault"

// Status is where a crawl is in its lifecycle.
type Status string

// Crawl statuses: queued (waiting for a worker, or for another crawl of
// the same site to end), running, then one of the three final ones:
// finished (every page in scope and within the limits was crawled),
// cancelled (by its user; what was found is kept) or failed (given up,
// with the reason in Crawl.Failure).
const (
	StatusQueued    Status = "queued"
	StatusRunning   Status = "running"
	StatusFinished  Status = "finished"
	StatusCancelled Status = "cancelled"
	StatusFailed    Status = "failed"
)

// Statuses lists every status in lifecycle order.
var Statuses = []Status{StatusQueued, StatusRunning, StatusFinished, StatusCancelled, StatusFailed}

// ParseStatus accepts a status by name.
func ParseStatus(s string) (Status, bool) {
	for _, st := range Statuses {
		if string(st) == s {
			return st, true
		}
	}
	return "", false
}

// Final reports whether s is a final status: nothing follows it.
func (s Status) Final() bool {
	return s == StatusFinished || s == StatusCancelled || s == StatusFailed
}

// CanBecome reports whether a crawl of status s may move to next: queued
// to running, cancelled or failed; running to finished, cancelled or
// failed; nothing from a final status, and no status to itself (a crawl
// resumed after a restart is still running: it moves nowhere).
func (s Status) CanBecome(next Status) bool {
	switch s {
	case StatusQueued:
		return next == StatusRunning || next == StatusCancelled || next == StatusFailed
	case StatusRunning:
		return next.Final()
	}
	return false
}

// ErrTransition is returned when a crawl would move to a status its
// current one cannot become (cancelling a finished crawl).
var ErrTransition = fault.New(fault.Conflict, "crawl: the crawl cannot move to that status from its current one")

// Transition returns next when s may become it, else ErrTransition.
func (s Status) Transition(next Status) (Status, error) {
	if !s.CanBecome(next) {
		return s, ErrTransition
	}
	return next, nil
}

// Ending returns the final status c moves to when its crawler ends it as
// status: finished becomes cancelled when c's cancel was requested (the
// user's cancel wins over a finish written after it). ErrTransition when
// the result is not final or c may not become it.
func (c Crawl) Ending(status Status) (Status, error) {
	if status == StatusFinished && c.CancelRequested {
		status = StatusCancelled
	}
	if !status.Final() {
		return c.Status, ErrTransition
	}
	return c.Status.Transition(status)
}
