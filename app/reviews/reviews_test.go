package reviews_test

import (
	"context"
	"errors"
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/app/reviews"
	"github.com/pinsight/pinsight/domain/fault"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/ratelimit"
	"github.com/pinsight/pinsight/domain/review"
	"github.com/pinsight/pinsight/ports/porttest"
)

// failingLimiter cannot count.
type failingLimiter struct{}

func (failingLimiter) Take(context.Context, string, ratelimit.Limit) (ratelimit.Decision, error) {
	return ratelimit.Decision{}, errors.New("limiter down")
}

func (failingLimiter) TakeN(context.Context, string, ratelimit.Limit, int) (ratelimit.Decision, error) {
	return ratelimit.Decision{}, errors.New("limiter down")
}

func newReviews(cfg reviews.Config) *reviews.Reviews {
	store := memory.NewReviewStore()
	return reviews.New(directory.NewWithReviews(memory.NewPostalStore(porttest.PostalDataset()), store), store, cfg)
}

func TestListParams(t *testing.T) {
	rs := newReviews(reviews.Config{})
	for _, p := range []reviews.ListParams{{SortBy: "id"}, {Sort: "up"}, {Page: -1}, {PerPage: -1}} {
		_, err := rs.OfficeReviews(context.Background(), 1, p)
		if fault.KindOf(err) != fault.Invalid || len(fault.FieldErrors(err)) != 1 {
			t.Errorf("OfficeReviews(%+v) err = %v; want one invalid field", p, err)
		}
	}
	if _, err := rs.OfficeReviews(context.Background(), 9999, reviews.ListParams{}); !errors.Is(err, postal.ErrNotFound) {
		t.Errorf("reviews of an unknown office: err = %v", err)
	}
}

func TestWriteQuota(t *testing.T) {
	ctx := context.Background()
	rs := newReviews(reviews.Config{Limiter: memory.NewRateLimiter(), WriteLimit: ratelimit.Limit{Requests: 2, Window: 1 << 40}})
	for range 2 {
		if _, err := rs.Like(ctx, 1, 1, true); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := rs.Put(ctx, 1, 1, review.Draft{Rating: 3})
	var rl *reviews.RateLimitError
	if !errors.As(err, &rl) || fault.KindOf(err) != fault.RateLimited || rl.RetryAfter() <= 0 {
		t.Errorf("third write err = %v; want a RateLimitError with a retry delay", err)
	}
	if _, _, err := rs.Put(ctx, 2, 1, review.Draft{Rating: 3}); err != nil {
		t.Errorf("another user's write: %v", err)
	}
	for _, cfg := range []reviews.Config{
		{Limiter: failingLimiter{}},                                     // a limiter down lets writes through
		{Limiter: memory.NewRateLimiter(), WriteLimit: reviews.NoLimit}, // no limit
	} {
		rs := newReviews(cfg)
		for i := range 40 {
			if _, err := rs.Like(ctx, 1, 1, i%2 == 0); err != nil {
				t.Fatalf("write %d with %+v: %v", i, cfg, err)
			}
		}
	}
}
