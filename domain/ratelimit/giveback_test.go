package ratelimit_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/ratelimit"
)

func TestGiveBack(t *testing.T) {
	day := ratelimit.Limit{Requests: 240, Window: 24 * time.Hour} // one request back every 6 minutes
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	_, tat, _ := day.TakeN(time.Time{}, t0, 100) // back by itself at t0+10h

	// At once: all 60 unused return, and 60 more fit again.
	back, n := day.GiveBack(tat, tat, t0, 60)
	if n != 60 || !back.Equal(tat.Add(-60*6*time.Minute)) {
		t.Fatalf("GiveBack at once = %v, %d; want 60 back", back, n)
	}
	if d, _, _ := day.TakeN(back, t0, 200); !d.Allowed {
		t.Fatalf("after 60 back, 200 of 240 do not fit: %+v", d)
	}

	// 9 hours on, with another charge since, only the 10 requests of the
	// charge still out return, not the other charge's.
	later := t0.Add(9 * time.Hour)
	_, tat2, _ := day.TakeN(tat, later, 50)
	back, n = day.GiveBack(tat2, tat, later, 60)
	if n != 10 || !back.Equal(tat2.Add(-10*6*time.Minute)) {
		t.Fatalf("GiveBack 9 h later = %v, %d; want 10 back", back, n)
	}

	// Once the charge is all back, or with the quota whole, nothing returns.
	_, tat3, _ := day.TakeN(tat, t0.Add(11*time.Hour), 50)
	if back, n := day.GiveBack(tat3, tat, t0.Add(11*time.Hour), 60); n != 0 || !back.Equal(tat3) {
		t.Errorf("GiveBack after the charge came back = %v, %d", back, n)
	}
	if back, n := day.GiveBack(time.Time{}, tat, t0, 60); n != 0 || !back.IsZero() {
		t.Errorf("GiveBack to a whole quota = %v, %d", back, n)
	}
	// Never more than owed: the quota comes back whole, no more.
	_, small, _ := day.TakeN(time.Time{}, t0, 5)
	if back, n := day.GiveBack(small, tat, t0, 60); n != 5 || !back.Equal(t0) {
		t.Errorf("GiveBack of 60 owing 5 = %v, %d; want now, 5", back, n)
	}
}

func ExampleLimit_GiveBack() {
	day := ratelimit.Limit{Requests: 10_000, Window: 24 * time.Hour}
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	d, tat, _ := day.TakeN(time.Time{}, now, 500) // a crawl of max_pages 500 accepted
	until := now.Add(d.Reset)                     // when those 500 are back by themselves
	later := now.Add(10 * time.Minute)            // it ends having crawled 120 pages
	tat, back := day.GiveBack(tat, until, later, 380)
	d, _, _ = day.TakeN(tat, later, 1)
	// 10,000 - 500 + 69 back by themselves in 10 minutes + 380 - the 1 just taken:
	fmt.Println("given back:", back, "left:", d.Remaining)
	// Output:
	// given back: 380 left: 9948
}
