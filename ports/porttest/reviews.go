package porttest

import (
	"context"
	"errors"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/review"
	"github.com/pinsight/pinsight/ports"
)

// reviewEpoch is the creation time of the suite's first review.
var reviewEpoch = time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)

// Offices of the review suite: two of one PIN sharing name and type (the
// ordinal tells them apart) and one of another PIN.
var (
	reviewOfficeA  = review.Office{Pincode: "110001", NameKey: "connaught place", OfficeType: "PO"}
	reviewOfficeA2 = review.Office{Pincode: "110001", NameKey: "connaught place", OfficeType: "PO", Ordinal: 1}
	reviewOfficeB  = review.Office{Pincode: "560001", NameKey: "bangalore gpo", OfficeType: "HO"}
)

// newReview is user's review of office with rating, written n minutes
// after the epoch.
func newReview(office review.Office, user int64, rating, n int) review.Review {
	at := reviewEpoch.Add(time.Duration(n) * time.Minute)
	return review.Review{Office: office, UserID: user, Rating: rating, Title: "T", Text: "text", CreatedAt: at, UpdatedAt: at}
}

// TestReviewStore checks a ReviewStore. newStore must return an empty
// store each time it is called, whose users 1 to 3 exist.
func TestReviewStore(t *testing.T, newStore func(t *testing.T) ports.ReviewStore) {
	t.Run("put get delete", func(t *testing.T) { testReviewPut(t, newStore(t)) })
	t.Run("texts verbatim", func(t *testing.T) { testReviewTexts(t, newStore(t)) })
	t.Run("lists", func(t *testing.T) { testReviewLists(t, newStore(t)) })
	t.Run("likes", func(t *testing.T) { testReviewLikes(t, newStore(t)) })
	t.Run("feedback and versions", func(t *testing.T) { testReviewFeedback(t, newStore(t)) })
	t.Run("concurrent writes", func(t *testing.T) { testReviewConcurrent(t, newStore(t)) })
}

func testReviewPut(t *testing.T, s ports.ReviewStore) {
	ctx := context.Background()
	r, created, err := s.PutReview(ctx, newReview(reviewOfficeA, 1, 4, 0))
	if err != nil || !created {
		t.Fatalf("PutReview = %v, created %v", err, created)
	}
	again := newReview(reviewOfficeA, 1, 2, 5)
	again.Title = "changed"
	got, created, err := s.PutReview(ctx, again)
	if err != nil || created {
		t.Fatalf("second PutReview = %v, created %v; want replaced", err, created)
	}
	if !got.CreatedAt.Equal(r.CreatedAt) || !got.UpdatedAt.Equal(again.UpdatedAt) || got.Rating != 2 || got.Title != "changed" {
		t.Errorf("replaced review = %+v; want created %v kept, updated %v, rating 2", got, r.CreatedAt, again.UpdatedAt)
	}
	read, err := s.Review(ctx, 1, reviewOfficeA)
	if err != nil || read.Rating != 2 || read.Office != reviewOfficeA || read.UserID != 1 || !read.CreatedAt.Equal(r.CreatedAt) {
		t.Errorf("Review = %+v, %v", read, err)
	}
	for _, tt := range []struct {
		user   int64
		office review.Office
	}{{2, reviewOfficeA}, {1, reviewOfficeA2}, {1, reviewOfficeB}} {
		if _, err := s.Review(ctx, tt.user, tt.office); !errors.Is(err, review.ErrNotFound) {
			t.Errorf("Review(user %d, %v) err = %v, want review.ErrNotFound", tt.user, tt.office, err)
		}
		if err := s.DeleteReview(ctx, tt.user, tt.office); !errors.Is(err, review.ErrNotFound) {
			t.Errorf("DeleteReview(user %d, %v) err = %v, want review.ErrNotFound", tt.user, tt.office, err)
		}
	}
	if err := s.DeleteReview(ctx, 1, reviewOfficeA); err != nil {
		t.Fatalf("DeleteReview = %v", err)
	}
	if _, err := s.Review(ctx, 1, reviewOfficeA); !errors.Is(err, review.ErrNotFound) {
		t.Errorf("Review after delete err = %v", err)
	}
}

func testReviewTexts(t *testing.T, s ports.ReviewStore) {
	ctx := context.Background()
	r := newReview(reviewOfficeB, 1, 5, 0)
	r.Title = `<script>alert("x")</script> ' OR 1=1 --`
	r.Text = "line one\nline two\t\u00e9\u0928\U0001F600 &amp; <b>bold</b> %s %00"
	if _, _, err := s.PutReview(ctx, r); err != nil {
		t.Fatal(err)
	}
	got, err := s.Review(ctx, 1, reviewOfficeB)
	if err != nil || got.Title != r.Title || got.Text != r.Text {
		t.Errorf("stored texts = %q, %q (%v); want %q, %q", got.Title, got.Text, err, r.Title, r.Text)
	}
}

func testReviewLists(t *testing.T, s ports.ReviewStore) {
	ctx := context.Background()
	for _, r := range []review.Review{
		newReview(reviewOfficeA, 1, 3, 2), newReview(reviewOfficeA, 2, 5, 1), newReview(reviewOfficeA, 3, 3, 3),
		newReview(reviewOfficeB, 1, 1, 4), newReview(reviewOfficeA2, 1, 4, 0),
	} {
		if _, _, err := s.PutReview(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	users := func(rs []review.Review) []int64 {
		out := []int64{}
		for _, r := range rs {
			out = append(out, r.UserID)
		}
		return out
	}
	for _, tt := range []struct {
		q    review.ListQuery
		want []int64
	}{
		{review.ListQuery{SortBy: review.SortCreated}, []int64{2, 1, 3}},
		{review.ListQuery{SortBy: review.SortCreated, Desc: true}, []int64{3, 1, 2}},
		{review.ListQuery{SortBy: review.SortRating}, []int64{1, 3, 2}},
		{review.ListQuery{SortBy: review.SortRating, Desc: true}, []int64{2, 3, 1}},
		{review.ListQuery{SortBy: review.SortCreated, Offset: 1, Limit: 1}, []int64{1}},
		{review.ListQuery{SortBy: review.SortCreated, Offset: 5, Limit: 10}, []int64{}},
	} {
		rs, total, err := s.OfficeReviews(ctx, reviewOfficeA, tt.q)
		if err != nil || total != 3 || !sameIDs(users(rs), tt.want) {
			t.Errorf("OfficeReviews(%+v) = %v, %d, %v; want %v, 3", tt.q, users(rs), total, err, tt.want)
		}
	}
	mine, total, err := s.UserReviews(ctx, 1, review.ListQuery{SortBy: review.SortCreated, Limit: 10})
	if err != nil || total != 3 || len(mine) != 3 || mine[0].Office != reviewOfficeA2 || mine[1].Office != reviewOfficeA || mine[2].Office != reviewOfficeB {
		t.Errorf("UserReviews(1) = %+v, %d, %v; want A2, A, B", mine, total, err)
	}
	none, total, err := s.UserReviews(ctx, 3, review.ListQuery{Offset: 1, Limit: 10})
	if err != nil || total != 1 || len(none) != 0 {
		t.Errorf("UserReviews(3) page 2 = %v, %d, %v; want none of 1", none, total, err)
	}
}

func testReviewLikes(t *testing.T, s ports.ReviewStore) {
	ctx := context.Background()
	steps := []struct {
		user    int64
		liked   bool
		changed bool
	}{{1, true, true}, {1, true, false}, {2, true, true}, {1, false, true}, {1, false, false}}
	for _, st := range steps {
		changed, err := s.SetLike(ctx, st.user, reviewOfficeA, st.liked)
		if err != nil || changed != st.changed {
			t.Fatalf("SetLike(%d, %v) = %v, %v; want changed %v", st.user, st.liked, changed, err, st.changed)
		}
	}
	for user, want := range map[int64]bool{1: false, 2: true, 3: false} {
		if got, err := s.Liked(ctx, user, reviewOfficeA); err != nil || got != want {
			t.Errorf("Liked(%d) = %v, %v; want %v", user, got, err, want)
		}
	}
	c, err := s.Counts(ctx, reviewOfficeA.Pincode)
	if err != nil || c.Feedback[reviewOfficeA] != (postal.Feedback{Likes: 1}) {
		t.Errorf("Counts after likes = %v, %v; want 1 like", c.Feedback, err)
	}
}

func testReviewFeedback(t *testing.T, s ports.ReviewStore) {
	ctx := context.Background()
	counts := func(pin postal.Pincode) review.Counts {
		t.Helper()
		c, err := s.Counts(ctx, pin)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	version := func(pin postal.Pincode) int64 { t.Helper(); return counts("").Versions[pin] }
	for _, pin := range []postal.Pincode{"", "110001", "999999"} {
		if c := counts(pin); len(c.Feedback) != 0 || len(c.Versions) != 0 {
			t.Errorf("Counts(%q) of an empty store = %+v; want nothing", pin, c)
		}
	}
	a0, b0, all0 := version("110001"), version("560001"), version("")
	if _, _, err := s.PutReview(ctx, newReview(reviewOfficeA, 1, 5, 0)); err != nil {
		t.Fatal(err)
	}
	a1, b1, all1 := version("110001"), version("560001"), version("")
	if a1 <= a0 || b1 != b0 || all1 <= all0 {
		t.Errorf("versions after a review of 110001: %d->%d, 560001 %d->%d, global %d->%d", a0, a1, b0, b1, all0, all1)
	}
	if _, _, err := s.PutReview(ctx, newReview(reviewOfficeA, 2, 2, 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetLike(ctx, 3, reviewOfficeA, true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetLike(ctx, 3, reviewOfficeB, true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetLike(ctx, 3, reviewOfficeB, true); err != nil { // no change: no bump
		t.Fatal(err)
	}
	b2 := version("560001")
	if b2 != b1+1 {
		t.Errorf("560001 version %d -> %d after one like and one repeat; want +1", b1, b2)
	}
	all := counts("")
	want := map[review.Office]postal.Feedback{reviewOfficeA: {Reviews: 2, Likes: 1, RatingSum: 7}, reviewOfficeB: {Likes: 1}}
	if !maps.Equal(all.Feedback, want) {
		t.Errorf("Counts(\"\").Feedback = %v; want %v", all.Feedback, want)
	}
	if len(all.Versions) != 3 || all.Versions["110001"] == 0 || all.Versions["560001"] != b2 || all.Versions[""] < all.Versions["110001"] {
		t.Errorf("Counts(\"\").Versions = %v; want 110001, 560001 and the global one", all.Versions)
	}
	one := counts("110001") // one pincode: its offices, its version and the global one
	if !maps.Equal(one.Feedback, map[review.Office]postal.Feedback{reviewOfficeA: want[reviewOfficeA]}) {
		t.Errorf("Counts(110001).Feedback = %v; want office A only", one.Feedback)
	}
	if !maps.Equal(one.Versions, map[postal.Pincode]int64{"110001": all.Versions["110001"], "": all.Versions[""]}) {
		t.Errorf("Counts(110001).Versions = %v; want 110001's and the global one of %v", one.Versions, all.Versions)
	}
	if _, _, err := s.PutReview(ctx, newReview(reviewOfficeA, 2, 4, 2)); err != nil { // replace: 5 + 4
		t.Fatal(err)
	}
	if err := s.DeleteReview(ctx, 1, reviewOfficeA); err != nil {
		t.Fatal(err)
	}
	if f := counts("110001").Feedback; f[reviewOfficeA] != (postal.Feedback{Reviews: 1, Likes: 1, RatingSum: 4}) {
		t.Errorf("Counts after replace and delete = %v", f[reviewOfficeA])
	}
	if a3 := version("110001"); a3 <= a1 {
		t.Errorf("110001 version did not grow: %d -> %d", a1, a3)
	}
	if err := s.DeleteReview(ctx, 2, reviewOfficeA); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetLike(ctx, 3, reviewOfficeA, false); err != nil {
		t.Fatal(err)
	}
	if c := counts("110001"); len(c.Feedback) != 0 || c.Versions["110001"] == 0 {
		t.Errorf("Counts(110001) with nothing left = %+v; want no feedback and its version kept", c)
	}
}

// testReviewConcurrent writes reviews and likes of one office from many
// goroutines: the counts end exact.
func testReviewConcurrent(t *testing.T, s ports.ReviewStore) {
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 60)
	for user := int64(1); user <= 3; user++ {
		for i := range 10 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, _, err := s.PutReview(ctx, newReview(reviewOfficeB, user, 1+i%5, i)); err != nil {
					errs <- err
				}
				if _, err := s.SetLike(ctx, user, reviewOfficeB, i%2 == 0); err != nil {
					errs <- err
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	c, err := s.Counts(ctx, reviewOfficeB.Pincode)
	if err != nil {
		t.Fatal(err)
	}
	f := c.Feedback
	likes := 0
	sum := 0
	for user := int64(1); user <= 3; user++ {
		if l, _ := s.Liked(ctx, user, reviewOfficeB); l {
			likes++
		}
		r, err := s.Review(ctx, user, reviewOfficeB)
		if err != nil {
			t.Fatal(err)
		}
		sum += r.Rating
	}
	if got := f[reviewOfficeB]; got != (postal.Feedback{Reviews: 3, Likes: likes, RatingSum: sum}) {
		t.Errorf("Feedback after concurrent writes = %+v; want 3 reviews, %d likes, rating sum %d", got, likes, sum)
	}
}
