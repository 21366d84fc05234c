// Package reviews lets users review and like post offices: one review and
// one like per user and office, written against the office's stable
// identity (review.Office) and addressed by the loaded release's office
// id. Writes are rate limited per user and have the directory re-read the
// counts of their pincode, whose counts version and OnCountsChanged hooks
// keep postal caches true.
package reviews

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/domain/fault"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/review"
	"github.com/pinsight/pinsight/ports"
)

// DefaultWriteLimit is each user's quota of review and like writes.
var DefaultWriteLimit = ratelimit.Limit{Requests: 30, Window: time.Minute}

// NoLimit as Config.WriteLimit lets writes through unlimited.
var NoLimit = ratelimit.Limit{Requests: -1}

// Config tunes the use case; the zero Config has the defaults.
type Config struct {
	// WriteLimit is each user's quota of writes (put, delete, like,
	// unlike), whatever the API key; the zero Limit is DefaultWriteLimit,
	// NoLimit (or any limit not Enabled) none.
	WriteLimit ratelimit.Limit
	// Limiter keeps the quotas; nil: writes are not limited.
	Limiter ports.RateLimiter
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Reviews is the use case.
type Reviews struct {
	dir   *directory.Directory
	store ports.ReviewStore
	cfg   Config
}

// New returns the use case over the directory (which must count the same
// store's reviews: directory.NewWithReviews) and store.
func New(dir *directory.Directory, store ports.ReviewStore, cfg Config) *Reviews {
	if cfg.WriteLimit == (ratelimit.Limit{}) {
		cfg.WriteLimit = DefaultWriteLimit
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Reviews{dir: dir, store: store, cfg: cfg}
}

// Entry is a review with the office it is of in the loaded release.
type Entry struct {
	review.Review
	// OfficeID is the office's id in the loaded release; 0 when the release
	// has no office of that identity (the review is kept, not shown on any
	// office).
	OfficeID int64
}

// RateLimitError says the user wrote too often.
type RateLimitError struct {
	Limit ratelimit.Limit
	Wait  time.Duration
}

func (e *RateLimitError) Error() string {
	return "reviews: at most " + strconv.Itoa(e.Limit.Requests) + " review and like writes per " + e.Limit.Window.String() +
		": retry after " + strconv.Itoa(int((e.Wait+time.Second-1)/time.Second)) + " s"
}

// Kind implements fault.Kinder.
func (e *RateLimitError) Kind() fault.Kind { return fault.RateLimited }

// RetryAfter implements fault.RetryAfterer.
func (e *RateLimitError) RetryAfter() time.Duration { return e.Wait }

// take counts one write of user; a failing limiter lets it through (logged)
// rather than take the feature down.
func (rs *Reviews) take(ctx context.Context, user int64) error {
	if rs.cfg.Limiter == nil || !rs.cfg.WriteLimit.Enabled() {
		return nil
	}
	d, err := rs.cfg.Limiter.Take(ctx, "review-writes-user:"+strconv.FormatInt(user, 10), rs.cfg.WriteLimit)
	if err != nil {
		slog.WarnContext(ctx, "review write quota unavailable; writing anyway", "user", user, "err", err)
		return nil
	}
	if !d.Allowed {
		return &RateLimitError{Limit: rs.cfg.WriteLimit, Wait: d.RetryAfter}
	}
	return nil
}

// office resolves an office id of the loaded release to its identity.
func (rs *Reviews) office(ctx context.Context, id int64) (review.Office, error) {
	return rs.dir.OfficeIdentity(ctx, id)
}

// refreshCounts has the directory read pin's counts after a write, so the
// writer reads it; when that fails the write stands and the directory reads
// them again later.
func (rs *Reviews) refreshCounts(ctx context.Context, pin postal.Pincode) {
	if err := rs.dir.RefreshCounts(ctx, pin); err != nil {
		slog.WarnContext(ctx, "review counts not re-read after a write; serving the ones held until a retry", "pincode", pin, "err", err)
	}
}

// Put creates or replaces the user's review of office id; it returns the
// stored review and true when it was created. Invalid drafts are a
// *review.ValidationError, an unknown office postal.ErrNotFound, too many
// writes a *RateLimitError.
func (rs *Reviews) Put(ctx context.Context, user, officeID int64, d review.Draft) (Entry, bool, error) {
	if err := rs.take(ctx, user); err != nil {
		return Entry{}, false, err
	}
	d, err := d.Clean()
	if err != nil {
		return Entry{}, false, err
	}
	key, err := rs.office(ctx, officeID)
	if err != nil {
		return Entry{}, false, err
	}
	now := rs.cfg.Now().UTC().Truncate(time.Microsecond)
	r, created, err := rs.store.PutReview(ctx, review.Review{Office: key, UserID: user, Rating: d.Rating, Title: d.Title, Text: d.Text,
		CreatedAt: now, UpdatedAt: now})
	if err != nil {
		return Entry{}, false, err
	}
	rs.refreshCounts(ctx, key.Pincode)
	return Entry{Review: r, OfficeID: officeID}, created, nil
}

// Delete deletes the user's review of office id: review.ErrNotFound when
// they have none (another user's review is never touched).
func (rs *Reviews) Delete(ctx context.Context, user, officeID int64) error {
	if err := rs.take(ctx, user); err != nil {
		return err
	}
	key, err := rs.office(ctx, officeID)
	if err != nil {
		return err
	}
	if err := rs.store.DeleteReview(ctx, user, key); err != nil {
		return err
	}
	rs.refreshCounts(ctx, key.Pincode)
	return nil
}

// Mine returns the user's review of office id, or review.ErrNotFound.
func (rs *Reviews) Mine(ctx context.Context, user, officeID int64) (Entry, error) {
	key, err := rs.office(ctx, officeID)
	if err != nil {
		return Entry{}, err
	}
	r, err := rs.store.Review(ctx, user, key)
	return Entry{Review: r, OfficeID: officeID}, err
}

// Like makes the user like office id (liked) or not, idempotently, and
// returns the office with its counts after the change.
func (rs *Reviews) Like(ctx context.Context, user, officeID int64, liked bool) (postal.PostOffice, error) {
	if err := rs.take(ctx, user); err != nil {
		return postal.PostOffice{}, err
	}
	key, err := rs.office(ctx, officeID)
	if err != nil {
		return postal.PostOffice{}, err
	}
	changed, err := rs.store.SetLike(ctx, user, key, liked)
	if err != nil {
		return postal.PostOffice{}, err
	}
	if changed {
		rs.refreshCounts(ctx, key.Pincode)
	}
	return rs.dir.Office(ctx, officeID)
}

// Liked reports whether the user likes office id.
func (rs *Reviews) Liked(ctx context.Context, user, officeID int64) (bool, error) {
	key, err := rs.office(ctx, officeID)
	if err != nil {
		return false, err
	}
	return rs.store.Liked(ctx, user, key)
}
