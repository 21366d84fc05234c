package crawl

import "time"

// Crawls share sites and crawl workers in turns. A run of a crawl crawls
// for one Slice at most, then asks Share whether to go on: when another
// user's crawl waits for its site (SiteWaiting) the run gives the site to
// that crawl, the one waiting longest; when another user's crawl could
// start but waits for a worker (OtherWaiting) and the run's workers are
// all busy, it gives its worker up (and frees its site). Either way its
// crawl waits in turn, and the crawls alternate until one ends; each
// keeps its own pause between its requests (Settings.Pause). A crawl
// that waits for another user's site or worker so gets its first page
// within Turn.

// Slice is how long one run of a crawl crawls before it looks whether
// another user's crawl waits for its site or its worker (and snoozes, to
// go on in the next run, so that no run counts as stuck on the queue).
const Slice = 20 * time.Second

// SiteRetry is how long a crawl whose site another crawl holds waits
// before trying again.
const SiteRetry = 5 * time.Second

// Turn bounds how long another user's crawl keeps a site or a worker a
// crawl waits for: the holder gives it up at the end of its Slice, and
// the waiting crawl takes it at its next try (SiteRetry), the request in
// flight aside.
const Turn = 30 * time.Second

// Share is what decides whether a run of a crawl gives its worker or its
// site to another user's crawl: crawl workers and sites are shared by
// every user, and one user's crawls should not hold them while another
// user's crawl waits.
type Share struct {
	// UserRunning counts the crawl's user's other crawls running.
	UserRunning int
	// OtherWaiting tells whether another user has a crawl waiting (see
	// Crawl.WaitingSince) since less than MaxYieldFor that could start
	// now: its site is free, or handed to it.
	OtherWaiting bool
	// SiteWaiting tells whether another user has a crawl waiting since
	// less than MaxYieldFor for the crawl's site (the same
	// Crawl.Politeness), which the crawl holds.
	SiteWaiting bool
}

// Yields reports whether a run starting a slice should give its worker up
// for now (its job waits YieldWait and tries again): its user has another
// crawl running, so the user keeps at least one going, and another user's
// crawl could start.
func (s Share) Yields() bool { return s.UserRunning > 0 && s.OtherWaiting }

// GivesSite reports whether a run at the end of its slice gives its site
// to another user's crawl waiting for it (its job tries again after
// SiteRetry and waits its turn).
func (s Share) GivesSite() bool { return s.SiteWaiting }

// GivesWorker reports whether a run at the end of its slice gives its
// worker up (freeing its site; its job waits YieldWait): another user's
// crawl could start and waits for a worker, and busy tells that the
// run's workers are all busy (else a free one takes the waiting crawl).
func (s Share) GivesWorker(busy bool) bool { return s.OtherWaiting && busy }

// YieldWait is how long a run that yields its worker waits before trying
// again: long enough for a free worker to take the waiting crawl, well
// within a site hold's lease.
const YieldWait = 3 * time.Second

// MaxYieldFor bounds how long other users' crawls make a run yield: a
// crawl waiting longer (its job lost, say) is not waited for.
const MaxYieldFor = 10 * time.Minute
