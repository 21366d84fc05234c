package directory

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/review"
	"github.com/pinsight/pinsight/ports"
)

// Bounds of the counts replica's re-reads.
const (
	// countsReadTimeout bounds one re-read of counts (the storage's own
	// statement timeout usually ends it first).
	countsReadTimeout = time.Minute
	// countsRetryMax is the longest wait between failed re-reads.
	countsRetryMax = 30 * time.Second
)

// countsReplica holds, per process, every review count and counts version
// of the review storage: loaded whole once, then kept current pincode by
// pincode as writes are announced. A postal answer reads only the replica,
// never the storage, so postal reads keep answering through a database
// outage with the counts held. Writes by this process re-read their
// pincode at once (refresh); writes by other instances arrive as
// announcements (NOTIFY on Postgres) whose pincodes are re-read in the
// background (changed), as is everything after a lost connection, while
// readers go on with the counts held. A re-read that fails is kept pending
// and tried again, with backoff, when the next one is asked for or a read
// finds it due; no goroutine outlives the work it was started for.
//
// Readings are installed by version: a pincode's counts are replaced only
// by a reading at least as new (versions only grow), so re-reads racing
// each other never put older counts back.
type countsReplica struct {
	next    ports.ReviewCounts
	swapped func(pin postal.Pincode) // called after each install, outside the lock ("" : everything)

	loadMu sync.Mutex  // one first load at a time
	loaded atomic.Bool // a first reading is installed (set under mu)

	mu       sync.RWMutex
	feedback map[postal.Pincode]map[review.Office]postal.Feedback // every reviewed or liked office, by pincode
	versions map[postal.Pincode]int64                             // every pincode written to, "" the global one
	pending  map[postal.Pincode]struct{}                          // announced, not re-read yet ("": everything)
	running  bool                                                 // a drain goroutine owns pending
	retryAt  time.Time                                            // after a failure: when a read may start a drain
	backoff  time.Duration
}

func newCountsReplica(next ports.ReviewCounts, swapped func(postal.Pincode)) *countsReplica {
	return &countsReplica{next: next, swapped: swapped, pending: map[postal.Pincode]struct{}{}}
}

// load reads every count once, if no reading was installed yet: the only
// time a read waits on the storage (a directory loads at start).
func (c *countsReplica) load(ctx context.Context) error {
	if c.loaded.Load() {
		return nil
	}
	c.loadMu.Lock()
	defer c.loadMu.Unlock()
	if c.loaded.Load() {
		return nil
	}
	return c.read(ctx, "")
}

// pinFeedback returns the counts of the reviewed or liked offices of pin
// (any other office has none). The map is shared: read it only.
func (c *countsReplica) pinFeedback(ctx context.Context, pin postal.Pincode) (map[review.Office]postal.Feedback, error) {
	return held(ctx, c, func() map[review.Office]postal.Feedback { return c.feedback[pin] })
}

// version returns the counts version of pin ("" : the global one).
func (c *countsReplica) version(ctx context.Context, pin postal.Pincode) (int64, error) {
	return held(ctx, c, func() int64 { return c.versions[pin] })
}

// held returns get's reading of the counts held (under the read lock, once
// a first reading is installed), and starts a failed re-read again if it
// is due.
func held[T any](ctx context.Context, c *countsReplica, get func() T) (T, error) {
	if err := c.load(ctx); err != nil {
		var none T
		return none, err
	}
	c.mu.RLock()
	v, due := get(), c.retryDue()
	c.mu.RUnlock()
	if due {
		c.drainLater()
	}
	return v, nil
}

// retryDue reports whether a failed re-read waits and may be tried again
// now; the caller holds mu.
func (c *countsReplica) retryDue() bool {
	return len(c.pending) > 0 && !c.running && time.Now().After(c.retryAt)
}

// refresh re-reads the counts of pin ("" : every pincode) now and installs
// them. On failure pin stays pending (retried later) and the counts held
// are served meanwhile.
func (c *countsReplica) refresh(ctx context.Context, pin postal.Pincode) error {
	err := c.read(ctx, pin)
	if err != nil {
		c.mu.Lock()
		c.failedLocked(pin)
		c.mu.Unlock()
	}
	return err
}

// changed asks for pin's counts ("" : every pincode) to be re-read in the
// background; it never blocks.
func (c *countsReplica) changed(pin postal.Pincode) {
	c.mu.Lock()
	c.pending[pin] = struct{}{}
	c.retryAt = time.Time{} // news: try at once, even after a failure
	c.mu.Unlock()
	c.drainLater()
}

// drainLater starts a goroutine re-reading the pending pincodes unless one
// runs or a failure's backoff is not over.
func (c *countsReplica) drainLater() {
	c.mu.Lock()
	start := c.retryDue()
	if start {
		c.running = true
	}
	c.mu.Unlock()
	if start {
		go c.drain()
	}
}

// drain re-reads pending pincodes until none is left, or one fails: then
// the rest stay pending until the backoff is over.
func (c *countsReplica) drain() {
	for {
		c.mu.Lock()
		if len(c.pending) == 0 {
			c.running = false
			c.mu.Unlock()
			return
		}
		var pin postal.Pincode // "": one whole reading covers every pincode
		if _, all := c.pending[""]; all {
			clear(c.pending)
		} else {
			for pin = range c.pending {
				break
			}
			delete(c.pending, pin)
		}
		c.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), countsReadTimeout)
		err := c.read(ctx, pin)
		cancel()
		c.mu.Lock()
		if err != nil {
			c.failedLocked(pin)
			c.running = false
			c.mu.Unlock()
			return
		}
		c.backoff = 0
		c.mu.Unlock()
	}
}

// failedLocked keeps pin pending after a failed re-read and pushes the
// next retry back; the caller holds mu.
func (c *countsReplica) failedLocked(pin postal.Pincode) {
	c.pending[pin] = struct{}{}
	c.backoff = min(max(2*c.backoff, time.Second), countsRetryMax)
	c.retryAt = time.Now().Add(c.backoff)
}

// read reads the counts of pin ("" : all; all too until a first reading
// is installed), installs them and tells swapped.
func (c *countsReplica) read(ctx context.Context, pin postal.Pincode) error {
	first := !c.loaded.Load()
	if first {
		pin = ""
	}
	counts, err := c.next.Counts(ctx, pin)
	if err != nil {
		return err
	}
	c.install(pin, counts)
	if c.swapped != nil && !first { // nothing was served from the replica before its first reading
		c.swapped(pin)
	}
	return nil
}

// install puts a reading of pin's counts ("" : of every pincode) in place
// of the held ones, pincode by pincode, where it is at least as new.
func (c *countsReplica) install(pin postal.Pincode, counts review.Counts) {
	byPin := map[postal.Pincode]map[review.Office]postal.Feedback{}
	for o, f := range counts.Feedback {
		if byPin[o.Pincode] == nil {
			byPin[o.Pincode] = map[review.Office]postal.Feedback{}
		}
		byPin[o.Pincode][o] = f
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	global := max(c.versions[""], counts.Versions[""])
	if pin != "" {
		if v := counts.Versions[pin]; v >= c.versions[pin] {
			c.feedback[pin], c.versions[pin] = byPin[pin], v
			if byPin[pin] == nil {
				delete(c.feedback, pin)
			}
		}
		c.versions[""] = global
		return
	}
	versions := counts.Versions // the reading is ours to keep
	if versions == nil {
		versions = map[postal.Pincode]int64{}
	}
	for p, v := range c.versions { // keep what a racing re-read of one pincode installed after this reading
		if p != "" && v > versions[p] {
			versions[p] = v
			if fb, ok := c.feedback[p]; ok {
				byPin[p] = fb
			} else {
				delete(byPin, p)
			}
		}
	}
	versions[""] = global
	c.feedback, c.versions = byPin, versions
	c.loaded.Store(true)
}
