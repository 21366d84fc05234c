package ports

import (
	"context"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/review"
)

// ReviewStore keeps users' reviews and likes of post offices, keyed on the
// offices' stable identity (review.Office), so they survive dataset
// releases. Every write that changes something bumps the counts version of
// the office's pincode and the global one, atomically with the change.
type ReviewStore interface {
	ReviewCounts
	// PutReview stores r as r.UserID's review of r.Office, replacing the
	// user's earlier one (whose CreatedAt is kept; UpdatedAt is r's). It
	// returns the stored review and true when it was created.
	PutReview(ctx context.Context, r review.Review) (review.Review, bool, error)
	// DeleteReview deletes the user's review of office, or returns
	// review.ErrNotFound (none, or only other users').
	DeleteReview(ctx context.Context, userID int64, office review.Office) error
	// Review returns the user's review of office, or review.ErrNotFound.
	Review(ctx context.Context, userID int64, office review.Office) (review.Review, error)
	// OfficeReviews pages the reviews of office selected by q, with the
	// number of reviews of the office.
	OfficeReviews(ctx context.Context, office review.Office, q review.ListQuery) ([]review.Review, int, error)
	// UserReviews pages the user's reviews (of any office, present in the
	// loaded release or not) selected by q, with their number.
	UserReviews(ctx context.Context, userID int64, q review.ListQuery) ([]review.Review, int, error)
	// SetLike makes the user like office (liked true) or not; it returns
	// whether that changed anything (liking twice is one like).
	SetLike(ctx context.Context, userID int64, office review.Office, liked bool) (bool, error)
	// Liked reports whether the user likes office.
	Liked(ctx context.Context, userID int64, office review.Office) (bool, error)
}

// ReviewCounts is the read side of a ReviewStore the postal directory
// needs: the counts of offices and the counts versions of pincodes.
type ReviewCounts interface {
	// Counts reads, in one consistent snapshot and one round trip, the
	// counts of the offices of pin that have a review or a like (stored
	// under any release's identities), with the versions of pin and the
	// global one (""); for the empty pin, those of every office and every
	// pincode. A directory loads them all once and re-reads a pincode when
	// a write to it is announced.
	Counts(ctx context.Context, pin postal.Pincode) (review.Counts, error)
}
