package directory_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/directory"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/review"
	"github.com/pinsight/pinsight/geo"
	"github.com/pinsight/pinsight/ports"
	"github.com/pinsight/pinsight/ports/porttest"
)

// countingCounts counts the reads of review counts a directory makes; with
// fail set they fail, with hold set they wait for it to be closed (a
// stalled database).
type countingCounts struct {
	ports.ReviewStore
	mu    sync.Mutex
	reads int
	fail  bool
	hold  chan struct{}
}

func (c *countingCounts) Counts(ctx context.Context, pin postal.Pincode) (review.Counts, error) {
	c.mu.Lock()
	c.reads++
	hold := c.hold
	c.mu.Unlock()
	if hold != nil {
		select {
		case <-hold:
		case <-ctx.Done():
			return review.Counts{}, ctx.Err()
		}
	}
	c.mu.Lock()
	fail := c.fail
	c.mu.Unlock()
	if fail {
		return review.Counts{}, errors.New("counts: the database is down")
	}
	return c.ReviewStore.Counts(ctx, pin)
}

// set changes the failure mode.
func (c *countingCounts) set(fail bool, hold chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.fail, c.hold = fail, hold
}

func (c *countingCounts) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reads
}

// patnaHO is the identity of office 1 of the test dataset.
var patnaHO = review.Office{Pincode: "800001", NameKey: "patna", OfficeType: "HO"}

// officeFeedback looks pin up and returns the feedback of its office id,
// with the pincode's counts version.
func officeFeedback(t *testing.T, dir *directory.Directory, pin string, id int64) (postal.Feedback, int64) {
	t.Helper()
	ctx := context.Background()
	_, offices, err := dir.Lookup(ctx, pin)
	if err != nil {
		t.Fatal(err)
	}
	v, err := dir.CountsVersion(ctx, postal.Pincode(pin))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range offices {
		if o.ID == id {
			return o.Feedback, v
		}
	}
	t.Fatalf("%s lacks office %d", pin, id)
	return postal.Feedback{}, 0
}

// eventually waits (up to 10 s) for ok.
func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !ok(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestCountsHeld: the counts are read whole once; lookups and versions
// then read nothing; a write refreshed by this process is seen at once,
// with a new version, and reads its pincode only.
func TestCountsHeld(t *testing.T) {
	ctx := context.Background()
	store := memory.NewReviewStore()
	if _, _, err := store.PutReview(ctx, review.Review{Office: patnaHO, UserID: 1, Rating: 4}); err != nil {
		t.Fatal(err)
	}
	counts := &countingCounts{ReviewStore: store}
	dir := directory.NewWithReviews(memory.NewPostalStore(porttest.PostalDataset()), counts)
	if err := dir.LoadCounts(ctx); err != nil {
		t.Fatal(err)
	}
	if counts.count() != 1 {
		t.Fatalf("LoadCounts read the counts %d times; want once", counts.count())
	}
	fb0, v0 := officeFeedback(t, dir, "800001", 1)
	officeFeedback(t, dir, "226001", 10)
	if fb0 != (postal.Feedback{Reviews: 1, RatingSum: 4}) || v0 == 0 || counts.count() != 1 {
		t.Fatalf("lookups after the load: %+v version %d, %d reads; want the review, a version and no read", fb0, v0, counts.count())
	}
	if err := dir.LoadCounts(ctx); err != nil || counts.count() != 1 {
		t.Fatalf("a second LoadCounts read again (%d reads, %v)", counts.count(), err)
	}

	if _, err := store.SetLike(ctx, 2, patnaHO, true); err != nil {
		t.Fatal(err)
	}
	var seen []postal.Pincode
	dir.OnCountsChanged(func(pin postal.Pincode) {
		fb, _ := officeFeedback(t, dir, "800001", 1) // the hook runs once the new counts are served
		if fb.Likes != 1 {
			t.Errorf("hook for %q ran with %+v served; want the like", pin, fb)
		}
		seen = append(seen, pin)
	})
	if err := dir.RefreshCounts(ctx, "800001"); err != nil {
		t.Fatal(err)
	}
	if fb, v := officeFeedback(t, dir, "800001", 1); fb != (postal.Feedback{Reviews: 1, RatingSum: 4, Likes: 1}) || v <= v0 {
		t.Fatalf("after the refresh: %+v version %d (was %d); want the like and a new version", fb, v, v0)
	}
	if counts.count() != 2 || !slices.Equal(seen, []postal.Pincode{"800001"}) {
		t.Errorf("the refresh made %d reads and told the hooks %v; want 1 and [800001]", counts.count()-1, seen)
	}
}

// TestCountsWithoutStorage: while the review storage fails or hangs,
// lookups of pincodes never asked before, and versions, answer at once
// from the counts held, and so does an announcement; the changes made
// meanwhile are served once the storage answers again.
func TestCountsWithoutStorage(t *testing.T) {
	ctx := context.Background()
	store := memory.NewReviewStore()
	counts := &countingCounts{ReviewStore: store}
	dir := directory.NewWithReviews(memory.NewPostalStore(porttest.PostalDataset()), counts)
	if err := dir.LoadCounts(ctx); err != nil {
		t.Fatal(err)
	}
	hold := make(chan struct{})
	counts.set(false, hold) // the database stalls
	if _, _, err := store.PutReview(ctx, review.Review{Office: patnaHO, UserID: 1, Rating: 2}); err != nil {
		t.Fatal(err)
	}
	dir.CountsChanged("800001") // announced by another instance: read in the background
	dir.CountsChanged("")       // and the listener reconnected
	for _, pin := range []postal.Pincode{"800001", "800008", "226001", "226002", "400001", "700001"} {
		_, offices, err := dir.Lookup(ctx, string(pin))
		if err != nil || len(offices) == 0 {
			t.Fatalf("lookup of %s during the stall: %d offices, %v", pin, len(offices), err)
		}
		if _, err := dir.CountsVersion(ctx, pin); err != nil {
			t.Fatalf("counts version of %s during the stall: %v", pin, err)
		}
	}
	if _, err := dir.Nearby(ctx, geo.NearQuery{Point: geo.Point{Lat: 25.6, Lon: 85.2}, Limit: 10}); err != nil {
		t.Fatalf("nearby during the stall: %v", err)
	}
	eventually(t, "the background read to start", func() bool { return counts.count() >= 2 })
	counts.set(true, nil) // down: the stalled read fails, and so would the next
	close(hold)
	if err := dir.RefreshCounts(ctx, "800001"); err == nil {
		t.Error("RefreshCounts with the storage down succeeded")
	}
	if fb, _ := officeFeedback(t, dir, "800001", 1); fb != (postal.Feedback{}) {
		t.Errorf("after failed reads: %+v; want the counts held (none)", fb)
	}
	counts.set(false, nil) // back: a read after the backoff catches up
	eventually(t, "the review written during the outage", func() bool {
		fb, _ := officeFeedback(t, dir, "800001", 1)
		return fb == (postal.Feedback{Reviews: 1, RatingSum: 2})
	})
}

// TestCountsInstallNewest: readings of one pincode that race install the
// newest: an older one arriving last does not put older counts back.
func TestCountsInstallNewest(t *testing.T) {
	ctx := context.Background()
	store := memory.NewReviewStore()
	dir := directory.NewWithReviews(memory.NewPostalStore(porttest.PostalDataset()), store)
	var wg sync.WaitGroup
	for user := range int64(20) {
		wg.Go(func() {
			if _, err := store.SetLike(ctx, user+1, patnaHO, true); err != nil {
				t.Error(err)
			}
			if err := dir.RefreshCounts(ctx, "800001"); err != nil {
				t.Error(err)
			}
			dir.CountsChanged("")
		})
	}
	wg.Wait()
	eventually(t, "20 likes", func() bool {
		fb, v := officeFeedback(t, dir, "800001", 1)
		want, _ := store.Counts(ctx, "800001")
		return fb.Likes == 20 && v == want.Versions["800001"]
	})
}

// TestNearbyCountsPerPincode: a nearby list spanning pincodes carries the
// counts of its reviewed office and zero for the others; a repeated list
// reads neither counts nor offices; a new release that brings back a
// reviewed office carries its counts at once, though its pincode was read
// again while the office was out of the release.
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
	reads, lookups := counts.count(), store.lookups
	if got := near(); !maps.Equal(got, want) || counts.count() != reads || store.lookups != lookups {
		t.Fatalf("repeated nearby = %v with %d counts reads and %d PIN lookups more; want the same and none",
			got, counts.count()-reads, store.lookups-lookups)
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
	if err := dir.RefreshCounts(ctx, "800008"); err != nil { // 800008's counts are read again, Patna Sahib's with them
		t.Fatal(err)
	}
	if got := near(); len(got) != 4 || got[15] != (postal.Feedback{}) || got[2] != (postal.Feedback{Likes: 1}) {
		t.Fatalf("nearby without Patna Sahib = %v", got)
	}
	ps.Replace(porttest.PostalDataset()) // ...and comes back, with its review
	if got := near(); got[15] != (postal.Feedback{Reviews: 1, RatingSum: 3}) {
		t.Fatalf("nearby after Patna Sahib came back = %v, want its review counted", got)
	}
}
