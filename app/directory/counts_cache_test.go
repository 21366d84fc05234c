package directory_test

import (
	"maps"

	"context"
	"github.com/pinsight/pinsight/geo"
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/review"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

// countingCounts counts the reads of review counts a directory makes.
type countingCounts struct {
	ports.ReviewStore
	feedback, versions int
}

func (c *countingCounts) Feedback(ctx context.Context, offices []review.Office) (map[review.Office]postal.Feedback, error) {
	c.feedback++
	return c.ReviewStore.Feedback(ctx, offices)
}

func (c *countingCounts) CountsVersion(ctx context.Context, pin postal.Pincode) (int64, error) {
	c.versions++
	return c.ReviewStore.CountsVersion(ctx, pin)
}

// TestCountsCached: a repeated lookup reads no counts and no version; a
// change announced for its pincode makes the next one read the new counts,
// a change of another pincode does not, and a change of every pincode ("",
// after a lost announcement) does.
func TestCountsCached(t *testing.T) {
	ctx := context.Background()
	store := memory.NewReviewStore()
	counts := &countingCounts{ReviewStore: store}
	dir := directory.NewWithReviews(memory.NewPostalStore(porttest.PostalDataset()), counts)
	patna := review.Office{Pincode: "800001", NameKey: "patna", OfficeType: "HO"}
	lookup := func() (postal.Feedback, int64) {
		t.Helper()
		_, offices, err := dir.Lookup(ctx, "800001")
		if err != nil {
			t.Fatal(err)
		}
		v, err := dir.CountsVersion(ctx, "800001")
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range offices {
			if o.ID == 1 {
				return o.Feedback, v
			}
		}
		t.Fatal("800001 lacks office 1")
		return postal.Feedback{}, 0
	}
	reads := func() int { return counts.feedback + counts.versions }

	fb0, v0 := lookup()
	before := reads()
	if fb1, v1 := lookup(); fb1 != fb0 || v1 != v0 || reads() != before {
		t.Fatalf("second lookup read the counts again (%d reads, was %d)", reads(), before)
	}

	if _, _, err := store.PutReview(ctx, review.Review{Office: patna, UserID: 1, Rating: 5}); err != nil {
		t.Fatal(err)
	}
	dir.CountsChanged("110001") // another pincode: 800001's counts stay cached
	if fb, _ := lookup(); fb != fb0 || reads() != before {
		t.Fatalf("a change of 110001 dropped 800001's counts: %+v, %d reads", fb, reads())
	}
	dir.CountsChanged("800001")
	if fb, v := lookup(); fb != (postal.Feedback{Reviews: 1, RatingSum: 5}) || v <= v0 {
		t.Fatalf("after the change of 800001: %+v version %d (was %d); want the new review and a new version", fb, v, v0)
	}

	if _, err := store.SetLike(ctx, 2, patna, true); err != nil {
		t.Fatal(err)
	}
	dir.CountsChanged("") // every pincode
	if fb, _ := lookup(); fb != (postal.Feedback{Reviews: 1, RatingSum: 5, Likes: 1}) {
		t.Fatalf("after a change of every pincode: %+v, want the like counted", fb)
	}
}

// TestNearbyCountsPerPincode: a nearby list spanning pincodes carries the
// counts of its reviewed office and zero for the others; a repeated list
// reads neither counts nor offices; a new release that brings back a
// reviewed office carries its counts at once.
func TestNearbyCountsPerPincode(t *testing.T) {
	ctx := context.Background()
	ps := memory.NewPostalStore(porttest.PostalDataset())
	store := &countingStore{PostalStore: ps}
	reviews := memory.NewReviewStore()
	counts := &countingCounts{ReviewStore: reviews}
	dir := directory.NewWithReviews(store, counts)
	sahib := review.Office{Pincode: "800008", NameKey: "patna sahib", OfficeType: "BO"}
	if _, _, err := reviews.PutReview(ctx, review.Review{Office: sahib, UserID: 1, Rating: 3}); err != nil {
		t.Fatal(err)
	}
	near := func() map[int64]postal.Feedback {
		t.Helper()
		res, err := dir.Nearby(ctx, geo.NearQuery{Point: geo.Point{Lat: 25.6, Lon: 85.2}, Limit: 4})
		if err != nil {
			t.Fatal(err)
		}
		out := map[int64]postal.Feedback{}
		for _, n := range res.Offices {
			out[n.Office.ID] = n.Office.Feedback
		}
		return out
	}
	want := map[int64]postal.Feedback{1: {}, 2: {}, 3: {}, 15: {Reviews: 1, RatingSum: 3}}
	if got := near(); !maps.Equal(got, want) {
		t.Fatalf("nearby feedback = %v, want %v", got, want)
	}
	reads, lookups := counts.feedback, store.lookups
	if got := near(); !maps.Equal(got, want) || counts.feedback != reads || store.lookups != lookups {
		t.Fatalf("repeated nearby = %v with %d counts reads and %d PIN lookups more; want the same and none",
			got, counts.feedback-reads, store.lookups-lookups)
	}

	ds := porttest.PostalDataset()
	var kept []postal.PostOffice
	for _, o := range ds.Offices {
		if o.ID != 15 {
			kept = append(kept, o)
		}
	}
	ds.Offices = kept
	ps.Replace(ds) // Patna Sahib leaves the release...
	city := review.Office{Pincode: "800008", NameKey: "patna city", OfficeType: "PO"}
	if _, err := reviews.SetLike(ctx, 2, city, true); err != nil {
		t.Fatal(err)
	}
	dir.CountsChanged("800008") // 800008's counts are read again, in this release
	if got := near(); len(got) != 4 || got[15] != (postal.Feedback{}) || got[2] != (postal.Feedback{Likes: 1}) {
		t.Fatalf("nearby without Patna Sahib = %v", got)
	}
	ps.Replace(porttest.PostalDataset()) // ...and comes back, with its review
	if got := near(); got[15] != (postal.Feedback{Reviews: 1, RatingSum: 3}) {
		t.Fatalf("nearby after Patna Sahib came back = %v, want its review counted", got)
	}
}
