package porttest

import (
	"context"
	"strconv"
	"testing"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/review"
	"github.com/pinsight/pinsight/ports"
)

// BenchmarkReviewFeedback measures the counts of one page of 100 offices
// (Feedback) in a store holding a review and a like by each of 3 users of
// each of 2,000 offices. newStore must return an empty store whose users 1
// to 3 exist.
func BenchmarkReviewFeedback(b *testing.B, newStore func(tb testing.TB) ports.ReviewStore) {
	ctx := context.Background()
	s := newStore(b)
	offices := make([]review.Office, 2000)
	for i := range offices {
		offices[i] = review.Office{Pincode: postal.Pincode(strconv.Itoa(110001 + i/4)), NameKey: "office " + strconv.Itoa(i), OfficeType: "BO"}
		for user := int64(1); user <= 3; user++ {
			if _, _, err := s.PutReview(ctx, newReview(offices[i], user, 1+i%5, i)); err != nil {
				b.Fatal(err)
			}
			if _, err := s.SetLike(ctx, user, offices[i], true); err != nil {
				b.Fatal(err)
			}
		}
	}
	page := offices[1000:1100]
	b.ResetTimer()
	for b.Loop() {
		f, err := s.Feedback(ctx, page)
		if err != nil || len(f) != len(page) {
			b.Fatalf("Feedback = %d offices, %v", len(f), err)
		}
	}
}
