package directory

import (
	"context"
	"sync"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/review"
	"github.com/pinsight/pinsight/ports"
)

// countsCache keeps, per process, the review counts of the pincodes it has
// read, each pincode's complete (the offices of the release's pincode that
// have a review or a like: any other has none), and the counts versions of
// the pincodes, so a postal answer reads the review storage only for what
// it has not seen since the last change: with a database, repeated lookups
// send no statement. CountsChanged drops what a write made stale: the
// entries of its pincode (and the global version), or everything for "".
// Writes by this process call it directly, writes by other instances
// through the storage's announcements (NOTIFY on Postgres), so an instance
// serves a count at most as old as the announcement's delivery.
type countsCache struct {
	next ports.ReviewCounts

	mu       sync.Mutex
	gen      uint64                                               // bumped by every drop: a read that straddles one stores nothing
	release  string                                               // postal.Info.Version the feedback entries were read for
	feedback map[postal.Pincode]map[review.Office]postal.Feedback // by pincode, complete for the release's offices
	versions map[postal.Pincode]int64
}

func newCountsCache(next ports.ReviewCounts) *countsCache {
	return &countsCache{next: next, feedback: map[postal.Pincode]map[review.Office]postal.Feedback{}, versions: map[postal.Pincode]int64{}}
}

// pinFeedback returns the counts of the offices of pin that have any in
// the release whose version is release (absent offices have none), read
// once until they change: on a miss, identities gives the identities of
// every office of pin in the release, and their counts are read in one
// round trip. A release names other offices, so a new one starts afresh.
func (c *countsCache) pinFeedback(ctx context.Context, release string, pin postal.Pincode, identities func() (map[int64]review.Office, error)) (map[review.Office]postal.Feedback, error) {
	c.mu.Lock()
	if c.release != release {
		c.release = release
		c.gen++
		clear(c.feedback)
	}
	fb, ok := c.feedback[pin]
	gen := c.gen
	c.mu.Unlock()
	if ok {
		return fb, nil
	}
	ids, err := identities()
	if err != nil {
		return nil, err
	}
	keys := make([]review.Office, 0, len(ids))
	for _, k := range ids {
		keys = append(keys, k)
	}
	if fb, err = c.next.Feedback(ctx, keys); err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.gen == gen { // the empty map too: an unreviewed pincode is the common case
		c.feedback[pin] = fb
	}
	c.mu.Unlock()
	return fb, nil
}

// CountsVersion returns the counts version of pin, read once until it
// changes.
func (c *countsCache) CountsVersion(ctx context.Context, pin postal.Pincode) (int64, error) {
	c.mu.Lock()
	v, ok := c.versions[pin]
	gen := c.gen
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := c.next.CountsVersion(ctx, pin)
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	if c.gen == gen {
		c.versions[pin] = v
	}
	c.mu.Unlock()
	return v, nil
}

// drop forgets what a write to an office of pin made stale: its offices'
// counts, its version and the global one; "" forgets everything.
func (c *countsCache) drop(pin postal.Pincode) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	if pin == "" {
		clear(c.feedback)
		clear(c.versions)
		return
	}
	delete(c.feedback, pin)
	delete(c.versions, pin)
	delete(c.versions, "")
}
