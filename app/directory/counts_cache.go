package directory

import (
	"context"
	"sync"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/review"
	"github.com/pinsight/pinsight/ports"
)

// countsCache keeps, per process, the review counts of the offices and the
// counts versions of the pincodes it has read, so a postal answer reads the
// review storage only for what it has not seen since the last change: with
// a database, repeated lookups send no statement. CountsChanged drops what
// a write made stale: the entries of its pincode (and the global version),
// or everything for "". Writes by this process call it directly, writes by
// other instances through the storage's announcements (NOTIFY on
// Postgres), so an instance serves a count at most as old as the
// announcement's delivery.
type countsCache struct {
	next ports.ReviewCounts

	mu       sync.Mutex
	gen      uint64                                               // bumped by every drop: a read that straddles one stores nothing
	feedback map[postal.Pincode]map[review.Office]postal.Feedback // by pincode, so a write drops its pincode at once
	versions map[postal.Pincode]int64
}

func newCountsCache(next ports.ReviewCounts) *countsCache {
	return &countsCache{next: next, feedback: map[postal.Pincode]map[review.Office]postal.Feedback{}, versions: map[postal.Pincode]int64{}}
}

// Feedback returns the counts of offices, in order, reading only the ones
// not cached (in one round trip).
func (c *countsCache) Feedback(ctx context.Context, offices []review.Office) ([]postal.Feedback, error) {
	out := make([]postal.Feedback, len(offices))
	var missing []int // positions in offices
	c.mu.Lock()
	gen := c.gen
	for i, o := range offices {
		if fb, ok := c.feedback[o.Pincode][o]; ok {
			out[i] = fb
		} else {
			missing = append(missing, i)
		}
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	ask := make([]review.Office, len(missing))
	for j, i := range missing {
		ask[j] = offices[i]
	}
	read, err := c.next.Feedback(ctx, ask)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, i := range missing {
		o := offices[i]
		fb := read[o]
		if c.gen == gen { // the zero value too: an office without reviews is the common case
			byOffice := c.feedback[o.Pincode]
			if byOffice == nil {
				byOffice = map[review.Office]postal.Feedback{}
				c.feedback[o.Pincode] = byOffice
			}
			byOffice[o] = fb
		}
		out[i] = fb
	}
	return out, nil
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
