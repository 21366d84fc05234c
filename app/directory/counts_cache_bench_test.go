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
	byPin := map[postal.Pincode]map[int64]review.Office{}
	var pins []postal.Pincode
	for pin := range 19600 {
		p := postal.Pincode(fmt.Sprint(110001 + pin))
		pins = append(pins, p)
		byPin[p] = map[int64]review.Office{}
		for i := range 9 {
			byPin[p][int64(pin*9+i)] = review.Office{Pincode: p, NameKey: fmt.Sprint("office ", i), OfficeType: "BO"}
		}
	}
	fill := func() {
		for _, p := range pins {
			if _, err := c.pinFeedback(context.Background(), "release", p, func() (map[int64]review.Office, error) { return byPin[p], nil }); err != nil {
				b.Fatal(err)
			}
		}
	}
	fill()
	b.ResetTimer()
	for i := range b.N {
		c.drop(pins[i%len(pins)])
		if i%1000 == 999 { // keep the cache full
			b.StopTimer()
			fill()
			b.StartTimer()
		}
	}
}
