package memory

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"sync"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/review"
	"github.com/pinsight/pinsight/ports"
)

// ReviewStore keeps reviews and likes in memory.
type ReviewStore struct {
	mu       sync.RWMutex
	reviews  map[reviewKey]review.Review
	likes    map[reviewKey]bool
	versions map[postal.Pincode]int64                             // "" is the global version
	counts   map[postal.Pincode]map[review.Office]postal.Feedback // by pincode: Counts reads one
}

// reviewKey is one user's entry for one office.
type reviewKey struct {
	office review.Office
	user   int64
}

// NewReviewStore returns an empty store.
func NewReviewStore() *ReviewStore {
	return &ReviewStore{reviews: map[reviewKey]review.Review{}, likes: map[reviewKey]bool{}, versions: map[postal.Pincode]int64{},
		counts: map[postal.Pincode]map[review.Office]postal.Feedback{}}
}

// change adds reviews, likes and ratings to office's counts and records
// the change in the versions; the caller holds mu.
func (s *ReviewStore) change(office review.Office, reviews, likes, ratings int) {
	byOffice := s.counts[office.Pincode]
	if byOffice == nil {
		byOffice = map[review.Office]postal.Feedback{}
		s.counts[office.Pincode] = byOffice
	}
	f := byOffice[office]
	f.Reviews, f.Likes, f.RatingSum = f.Reviews+reviews, f.Likes+likes, f.RatingSum+ratings
	byOffice[office] = f
	if f == (postal.Feedback{}) {
		delete(byOffice, office)
	}
	if len(byOffice) == 0 {
		delete(s.counts, office.Pincode)
	}
	s.versions[office.Pincode]++
	s.versions[""]++
}

// PutReview implements ports.ReviewStore.
func (s *ReviewStore) PutReview(_ context.Context, r review.Review) (review.Review, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := reviewKey{r.Office, r.UserID}
	old, exists := s.reviews[k]
	if exists {
		r.CreatedAt = old.CreatedAt
		s.change(r.Office, 0, 0, r.Rating-old.Rating)
	} else {
		s.change(r.Office, 1, 0, r.Rating)
	}
	s.reviews[k] = r
	return r, !exists, nil
}

// DeleteReview implements ports.ReviewStore.
func (s *ReviewStore) DeleteReview(_ context.Context, userID int64, office review.Office) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := reviewKey{office, userID}
	old, ok := s.reviews[k]
	if !ok {
		return review.ErrNotFound
	}
	delete(s.reviews, k)
	s.change(office, -1, 0, -old.Rating)
	return nil
}

// Review implements ports.ReviewStore.
func (s *ReviewStore) Review(_ context.Context, userID int64, office review.Office) (review.Review, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, ok := s.reviews[reviewKey{office, userID}]
	if !ok {
		return review.Review{}, review.ErrNotFound
	}
	return r, nil
}

// OfficeReviews implements ports.ReviewStore.
func (s *ReviewStore) OfficeReviews(_ context.Context, office review.Office, q review.ListQuery) ([]review.Review, int, error) {
	return s.list(q, func(r review.Review) bool { return r.Office == office })
}

// UserReviews implements ports.ReviewStore.
func (s *ReviewStore) UserReviews(_ context.Context, userID int64, q review.ListQuery) ([]review.Review, int, error) {
	return s.list(q, func(r review.Review) bool { return r.UserID == userID })
}

// list pages the reviews keep selects, in q's order.
func (s *ReviewStore) list(q review.ListQuery, keep func(review.Review) bool) ([]review.Review, int, error) {
	s.mu.RLock()
	var all []review.Review
	for _, r := range s.reviews {
		if keep(r) {
			all = append(all, r)
		}
	}
	s.mu.RUnlock()
	slices.SortFunc(all, func(a, b review.Review) int {
		c := a.CreatedAt.Compare(b.CreatedAt)
		if q.SortBy == review.SortRating {
			c = cmp.Compare(a.Rating, b.Rating)
		}
		if c == 0 {
			c = cmp.Compare(a.UserID, b.UserID)
		}
		if c == 0 {
			c = cmp.Compare(a.Office.Key(), b.Office.Key())
		}
		if q.Desc {
			return -c
		}
		return c
	})
	from := min(max(q.Offset, 0), len(all))
	to := len(all)
	if q.Limit > 0 {
		to = min(from+q.Limit, len(all))
	}
	return append([]review.Review{}, all[from:to]...), len(all), nil
}

// SetLike implements ports.ReviewStore.
func (s *ReviewStore) SetLike(_ context.Context, userID int64, office review.Office, liked bool) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := reviewKey{office, userID}
	if s.likes[k] == liked {
		return false, nil
	}
	if liked {
		s.likes[k] = true
		s.change(office, 0, 1, 0)
	} else {
		delete(s.likes, k)
		s.change(office, 0, -1, 0)
	}
	return true, nil
}

// Liked implements ports.ReviewStore.
func (s *ReviewStore) Liked(_ context.Context, userID int64, office review.Office) (bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.likes[reviewKey{office, userID}], nil
}

// Counts implements ports.ReviewStore.
func (s *ReviewStore) Counts(_ context.Context, pin postal.Pincode) (review.Counts, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := review.Counts{Feedback: map[review.Office]postal.Feedback{}, Versions: map[postal.Pincode]int64{}}
	if pin == "" {
		for _, byOffice := range s.counts {
			maps.Copy(out.Feedback, byOffice)
		}
		maps.Copy(out.Versions, s.versions)
		return out, nil
	}
	maps.Copy(out.Feedback, s.counts[pin])
	for _, p := range []postal.Pincode{pin, ""} {
		if v, ok := s.versions[p]; ok {
			out.Versions[p] = v
		}
	}
	return out, nil
}

// Interface guards.
var _ ports.ReviewStore = (*ReviewStore)(nil)
