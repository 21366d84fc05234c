package directory

import (
	"context"
	"strconv"
	"sync"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/review"
)

// Office returns the office whose id is id in the loaded release, with its
// feedback; postal.ErrNotFound when the release has none.
func (dir *Directory) Office(ctx context.Context, id int64) (postal.PostOffice, error) {
	if id <= 0 {
		return postal.PostOffice{}, &postal.NotFoundError{What: "post office " + strconv.FormatInt(id, 10)}
	}
	o, err := dir.store.Office(ctx, id)
	if err != nil {
		return postal.PostOffice{}, err
	}
	offices := []postal.PostOffice{o}
	if err := dir.WithFeedback(ctx, offices); err != nil {
		return postal.PostOffice{}, err
	}
	return offices[0], nil
}

// OfficeIdentity returns the stable identity (see review.Office) of the
// office whose id is id in the loaded release, without reading its counts;
// postal.ErrNotFound when the release has none. Its ordinal needs the other
// offices of its pincode (cached per release).
func (dir *Directory) OfficeIdentity(ctx context.Context, id int64) (review.Office, error) {
	if id <= 0 {
		return review.Office{}, &postal.NotFoundError{What: "post office " + strconv.FormatInt(id, 10)}
	}
	o, err := dir.store.Office(ctx, id)
	if err != nil {
		return review.Office{}, err
	}
	ids, err := dir.Identities(ctx, o.Pincode)
	if err != nil {
		return review.Office{}, err
	}
	return ids[o.ID], nil
}

// Identities returns the identities of the offices of pin in the loaded
// release, by id (empty when it has none).
func (dir *Directory) Identities(ctx context.Context, pin postal.Pincode) (map[int64]review.Office, error) {
	info, err := dir.store.Info(ctx)
	if err != nil {
		return nil, err
	}
	return dir.identitiesOf(ctx, info.Version, pin)
}

// WithFeedback fills the Feedback of each of offices (of any pincodes)
// with one query of the review counts; it reads the other offices of their
// pincodes to know their identities. Without reviews it does nothing.
func (dir *Directory) WithFeedback(ctx context.Context, offices []postal.PostOffice) error {
	return dir.attach(ctx, offices, nil)
}

// WithNearbyFeedback is WithFeedback for nearby lists.
func (dir *Directory) WithNearbyFeedback(ctx context.Context, nearby []postal.Nearby) error {
	return attach(ctx, dir, nearby, nearbyFeedback, nil)
}

// self is the office of an office and its feedback, for attach.
func self(o *postal.PostOffice) (*postal.PostOffice, *postal.Feedback) { return o, &o.Feedback }

// nearbyFeedback is self of a nearby office (its own copy), for attach.
func nearbyFeedback(n *postal.Nearby) (*postal.PostOffice, *postal.Feedback) { return self(&n.Office) }

// refFeedback is the office of a reference and the feedback beside it
// (the office is shared: never written), for attach.
func refFeedback(n *postal.NearbyRef) (*postal.PostOffice, *postal.Feedback) {
	return n.Office, &n.Feedback
}

// attach fills the Feedback of offices; whole, when not nil, holds every
// office of their pincodes (a lookup's answer), sparing the reads.
func (dir *Directory) attach(ctx context.Context, offices, whole []postal.PostOffice) error {
	return attach(ctx, dir, offices, self, whole)
}

// attach fills the Feedback of the office of each of items (office gives
// the office, read, and the feedback to fill, in place or beside it) from
// the counts of their pincodes, held in memory (countsReplica: no read of
// the review storage). Identities are computed
// only for offices of pincodes that have feedback: in a directory where
// few offices are reviewed, most answers need none.
func attach[T any](ctx context.Context, dir *Directory, items []T, office func(*T) (*postal.PostOffice, *postal.Feedback), whole []postal.PostOffice) error {
	if dir.counts == nil || len(items) == 0 {
		return nil
	}
	info, err := dir.store.Info(ctx)
	if err != nil {
		return err
	}
	var (
		pin postal.Pincode
		fb  map[review.Office]postal.Feedback
		ids map[int64]review.Office
	)
	identities := func() (map[int64]review.Office, error) {
		if ids != nil {
			return ids, nil
		}
		if whole != nil {
			ids = review.Identify(whole)
			return ids, nil
		}
		ids, err = dir.identitiesOf(ctx, info.Version, pin)
		return ids, err
	}
	for i := range items {
		o, feedback := office(&items[i])
		if i == 0 || o.Pincode != pin {
			pin = o.Pincode
			if whole == nil {
				ids = nil
			}
			if fb, err = dir.counts.pinFeedback(ctx, pin); err != nil {
				return err
			}
		}
		if len(fb) == 0 {
			*feedback = postal.Feedback{}
			continue
		}
		byID, err := identities()
		if err != nil {
			return err
		}
		*feedback = fb[byID[o.ID]]
	}
	return nil
}

// identitiesOf returns the identities of the offices of pin in the release
// whose version is version, read once per pincode and release: lists of
// offices from many pincodes then cost no read of the store per pincode
// (which on a database would be one query each).
func (dir *Directory) identitiesOf(ctx context.Context, version string, pin postal.Pincode) (map[int64]review.Office, error) {
	c := &dir.identities
	c.mu.Lock()
	if c.version != version {
		c.version, c.byPin = version, map[postal.Pincode]map[int64]review.Office{}
	}
	ids, ok := c.byPin[pin]
	c.mu.Unlock()
	if ok {
		return ids, nil
	}
	offices, err := dir.store.OfficesByPincode(ctx, pin)
	if err != nil {
		return nil, err
	}
	ids = review.Identify(offices)
	c.mu.Lock()
	if c.version == version {
		c.byPin[pin] = ids
	}
	c.mu.Unlock()
	return ids, nil
}

// identityCache holds the identities of offices by pincode for one release.
type identityCache struct {
	mu      sync.Mutex
	version string // postal.Info.Version of the release cached
	byPin   map[postal.Pincode]map[int64]review.Office
}

// CountsVersion is the counts version of pin ("" : of every pincode),
// which grows with each review or like written to one of its offices: with
// the dataset version it makes the ETag of answers carrying counts. 0
// without reviews.
func (dir *Directory) CountsVersion(ctx context.Context, pin postal.Pincode) (int64, error) {
	if dir.counts == nil {
		return 0, nil
	}
	return dir.counts.version(ctx, pin)
}

// LoadCounts reads every review count into memory unless done already:
// a server calls it at start, so that no postal answer ever waits on the
// review storage (without it, the first answer with counts loads them).
func (dir *Directory) LoadCounts(ctx context.Context) error {
	if dir.counts == nil {
		return nil
	}
	return dir.counts.load(ctx)
}

// OnCountsChanged registers fn, called with the pincode after the counts
// of one of its offices changed in memory (a write by this process, or by
// another one the storage announced; "" after every count was read
// again): a cache of encoded answers drops what it holds of that pincode
// (and of lists spanning pincodes). fn must not block.
func (dir *Directory) OnCountsChanged(fn func(pin postal.Pincode)) {
	dir.hooks.mu.Lock()
	defer dir.hooks.mu.Unlock()
	dir.hooks.fns = append(dir.hooks.fns, fn)
}

// RefreshCounts re-reads the counts of pin ("" : of every pincode) now,
// then tells the OnCountsChanged hooks: the review use case calls it after
// each of its writes, so the writer reads what it wrote. When the read
// fails the counts held are served, and read again later (on the next
// change or a read after a backoff).
func (dir *Directory) RefreshCounts(ctx context.Context, pin postal.Pincode) error {
	if dir.counts == nil {
		dir.notifyCounts(pin)
		return nil
	}
	return dir.counts.refresh(ctx, pin)
}

// CountsChanged says that the counts of an office of pin changed ("" :
// maybe any, e.g. after announcements were lost): they are re-read in the
// background, then the OnCountsChanged hooks are told, and until then the
// counts held are served. It never blocks: the storage's announcement
// listener calls it for other instances' writes.
func (dir *Directory) CountsChanged(pin postal.Pincode) {
	if dir.counts == nil {
		dir.notifyCounts(pin)
		return
	}
	dir.counts.changed(pin)
}

// notifyCounts calls the OnCountsChanged hooks.
func (dir *Directory) notifyCounts(pin postal.Pincode) {
	dir.hooks.mu.Lock()
	fns := dir.hooks.fns
	dir.hooks.mu.Unlock()
	for _, fn := range fns {
		fn(pin)
	}
}

// countsHooks are the OnCountsChanged callbacks.
type countsHooks struct {
	mu  sync.Mutex
	fns []func(postal.Pincode)
}

// PincodeOf returns the pincode of office id in the loaded release, or a
// postal.ErrNotFound; it reads no counts.
func (dir *Directory) PincodeOf(ctx context.Context, id int64) (postal.Pincode, error) {
	o, err := dir.store.Office(ctx, id)
	return o.Pincode, err
}
