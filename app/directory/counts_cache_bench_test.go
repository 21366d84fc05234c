package directory

import (
	"context"
	"fmt"
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/review"
)

// BenchmarkCountsDrop is the cost of one review write to the counts cache
// holding the whole directory's offices (165,000 in 19,600 pincodes), the
// pause every reader waits out:
// go test -run '^$' -bench CountsDrop -benchmem ./app/directory
func BenchmarkCountsDrop(b *testing.B) {
	c := newCountsCache(memory.NewReviewStore())
	var offices []review.Office
	for pin := range 19600 {
		for i := range 9 {
			offices = append(offices, review.Office{Pincode: postal.Pincode(fmt.Sprint(110001 + pin)), NameKey: fmt.Sprint("office ", i), OfficeType: "BO"})
		}
	}
	fill := func() {
		if _, err := c.Feedback(context.Background(), offices); err != nil {
			b.Fatal(err)
		}
	}
	fill()
	b.ResetTimer()
	for i := range b.N {
		c.drop(offices[(i*9)%len(offices)].Pincode)
		if i%1000 == 999 { // keep the cache full
			b.StopTimer()
			fill()
			b.StartTimer()
		}
	}
}
