package porttest

import (
	"context"
	"strconv"
	"testing"

	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/review"
	"github.com/pinsight/pinsight/ports"
)

// BenchmarkReviewCounts measures the re-read of one pincode's counts
// (Counts, 4 offices) in a store holding a review and a like by each of 3
// users of each of 2,000 offices in 500 pincodes: what a directory does
// after each announced write. newStore must return an empty store whose
// users 1 to 3 exist.
func BenchmarkReviewCounts(b *testing.B, newStore func(tb testing.TB) ports.ReviewStore) {
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
	pin := offices[1000].Pincode
	b.ResetTimer()
	for b.Loop() {
		c, err := s.Counts(ctx, pin)
		if err != nil || len(c.Feedback) != 4 {
			b.Fatalf("Counts(%s) = %d offices, %v", pin, len(c.Feedback), err)
		}
	}
}
