package main

import (
	"testing"
	"time"
)

// TestReloadScheduleDelayWithinSpread: the delay before loading a new
// generation is the random draw within the spread, and none without one.
func TestReloadScheduleDelayWithinSpread(t *testing.T) {
	s := newReloadSchedule(30 * time.Second)
	var asked int64
	s.randN = func(n int64) int64 { asked = n; return n - 1 }
	if d := s.delay(); asked != int64(30*time.Second) || d != 30*time.Second-1 {
		t.Errorf("delay = %v drawn within %v, want the draw (30s-1ns) within 30s", d, time.Duration(asked))
	}
	s.randN = func(int64) int64 { return 0 }
	if d := s.delay(); d != 0 {
		t.Errorf("delay with a draw of 0 = %v", d)
	}
	none := newReloadSchedule(0)
	none.randN = func(int64) int64 { t.Fatal("a draw without a spread"); return 0 }
	if d := none.delay(); d != 0 {
		t.Errorf("delay without a spread = %v, want 0", d)
	}
	if d := newReloadSchedule(-time.Second).delay(); d != 0 {
		t.Errorf("delay with a negative spread = %v, want 0", d)
	}
	drawn := newReloadSchedule(time.Second)
	for range 1000 {
		if d := drawn.delay(); d < 0 || d >= time.Second {
			t.Fatalf("delay %v outside [0, 1s)", d)
		}
	}
}

// TestReloadScheduleBackoff: failed loads wait 1 s, 2 s, 4 s... up to a
// minute, plus the spread's draw; a success starts again from 1 s.
func TestReloadScheduleBackoff(t *testing.T) {
	s := newReloadSchedule(10 * time.Second)
	s.randN = func(int64) int64 { return int64(3 * time.Second) }
	var got []time.Duration
	for range 9 {
		got = append(got, s.failed()-3*time.Second)
	}
	want := []time.Duration{1, 2, 4, 8, 16, 32, 60, 60, 60}
	for i := range want {
		if got[i] != want[i]*time.Second {
			t.Fatalf("waits after successive failures (less the draw) = %v, want %v seconds", got, want)
		}
	}
	s.succeeded()
	if d := s.failed(); d != 4*time.Second {
		t.Errorf("first failure after a success waits %v, want 1s + the 3s draw", d)
	}
}
