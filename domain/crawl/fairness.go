package crawl

import "time"

// Share is what decides whether a run of a crawl gives its worker to
// another user's crawl (Yields): crawl workers are shared by every user,
// and one user's several crawls should not hold them all while another
// user's crawl waits to start.
type Share struct {
	// UserRunning counts the crawl's user's other crawls running.
	UserRunning int
	// OtherWaiting tells whether another user has a crawl queued since
	// less than MaxYieldFor whose site no crawl holds: it could start now.
	OtherWaiting bool
}

// Yields reports whether the run should give its worker up for now
// (its job waits YieldWait and tries again): its user has another crawl
// running, so the user keeps at least one going, and another user's
// crawl could start.
func (s Share) Yields() bool { return s.UserRunning > 0 && s.OtherWaiting }

// YieldWait is how long a run that yields waits before trying again:
// long enough for a free worker to take the waiting crawl, well within a
// site hold's lease.
const YieldWait = 3 * time.Second

// MaxYieldFor bounds how long other users' crawls make a run yield: a
// crawl queued longer (its job lost, say) is not waited for.
const MaxYieldFor = 10 * time.Minute
