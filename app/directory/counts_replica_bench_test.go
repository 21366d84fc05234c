package directory

import (
	"context"
	"fmt"
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/review"
)

// reviewedDirectory is a review store in which every office of a directory
// the size of India Post's (165,000 in 19,600 pincodes) has a review.
func reviewedDirectory(b *testing.B) (*memory.ReviewStore, []postal.Pincode) {
	ctx := context.Background()
	store := memory.NewReviewStore()
	var pins []postal.Pincode
	for pin := range 19600 {
		p := postal.Pincode(fmt.Sprint(110001 + pin))
		pins = append(pins, p)
		for i := range 9 {
			o := review.Office{Pincode: p, NameKey: fmt.Sprint("office ", i), OfficeType: "BO"}
			if _, _, err := store.PutReview(ctx, review.Review{Office: o, UserID: 1, Rating: 3}); err != nil {
				b.Fatal(err)
			}
		}
	}
	return store, pins
}

// BenchmarkCountsLoad is the first load of the counts replica when every
// office of the directory is reviewed (the worst case), reading included:
// go test -run '^$' -bench 'Counts(Load|Refresh)' -benchmem ./app/directory
func BenchmarkCountsLoad(b *testing.B) {
	store, _ := reviewedDirectory(b)
	for b.Loop() {
		if err := newCountsReplica(store, nil).load(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCountsRefresh is the re-read and install of one pincode's
// counts in that replica: what every review write costs each instance,
// the lock held only to swap the pincode's map in.
func BenchmarkCountsRefresh(b *testing.B) {
	store, pins := reviewedDirectory(b)
	c := newCountsReplica(store, nil)
	ctx := context.Background()
	if err := c.load(ctx); err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		if err := c.refresh(ctx, pins[i%len(pins)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
