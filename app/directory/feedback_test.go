package directory_test

import (
	"context"
	"testing"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/review"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

// countingStore counts the PIN lookups a directory makes.
type countingStore struct {
	ports.PostalStore
	lookups int
}

func (s *countingStore) OfficesByPincode(ctx context.Context, pin postal.Pincode) ([]postal.PostOffice, error) {
	s.lookups++
	return s.PostalStore.OfficesByPincode(ctx, pin)
}

// TestFeedbackIdentitiesCached: lists of offices read the offices of each
// pincode that has feedback once per release to know their identities
// (the others need none), and a new release reads them again.
func TestFeedbackIdentitiesCached(t *testing.T) {
	ctx := context.Background()
	ps := memory.NewPostalStore(porttest.PostalDataset())
	store := &countingStore{PostalStore: ps}
	reviews := memory.NewReviewStore()
	dir := directory.NewWithReviews(store, reviews)
	patna := review.Office{Pincode: "800001", NameKey: "patna", OfficeType: "HO"}
	if _, _, err := reviews.PutReview(ctx, review.Review{Office: patna, UserID: 1, Rating: 4}); err != nil {
		t.Fatal(err)
	}
	search := func() paging.List[postal.PostOffice] {
		t.Helper()
		l, err := dir.SearchOffices(ctx, "patna", paging.Page{PerPage: 100})
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	l := search()
	pins := map[postal.Pincode]bool{}
	found := false
	for _, o := range l.Items {
		pins[o.Pincode] = true
		if o.ID == 1 {
			found = o.Feedback == (postal.Feedback{Reviews: 1, RatingSum: 4})
		}
	}
	if !found || len(pins) < 2 || store.lookups != 1 {
		t.Fatalf("search: office 1 counted %v, %d PIN lookups for %d PINs; want 1 (800001, the one with feedback)", found, store.lookups, len(pins))
	}
	search()
	if store.lookups != 1 {
		t.Errorf("a second search read %d more PINs; want none", store.lookups-1)
	}
	ds := porttest.PostalDataset()
	ds.Offices = ds.Offices[1:] // another release: office 1 is gone
	ps.Replace(ds)
	before := store.lookups
	for _, o := range search().Items {
		if o.Feedback != (postal.Feedback{}) {
			t.Errorf("office %d has feedback %+v after its office left the release", o.ID, o.Feedback)
		}
	}
	if store.lookups == before {
		t.Error("a new release reused the old release's identities")
	}
}
