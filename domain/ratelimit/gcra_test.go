package ratelimit_test

import (
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/ratelimit"
)

func TestTakeBurstThenRefill(t *testing.T) {
	l := ratelimit.Limit{Requests: 3, Window: 3 * time.Second}
	now := time.Unix(1000, 0)
	var tat time.Time
	for i, wantRemaining := range []int{2, 1, 0} {
		d, next, err := l.Take(tat, now)
		if err != nil || !d.Allowed || d.Remaining != wantRemaining {
			t.Fatalf("request %d: %+v, %v; want allowed with %d remaining", i, d, err, wantRemaining)
		}
		tat = next
	}
	d, same, _ := l.Take(tat, now)
	if d.Allowed || d.RetryAfter != time.Second || !same.Equal(tat) {
		t.Fatalf("4th request: %+v; want denied, retry after 1s, state unchanged", d)
	}
	d, _, _ = l.Take(tat, now.Add(time.Second))
	if !d.Allowed || d.Remaining != 0 {
		t.Fatalf("after 1s: %+v; want one allowed", d)
	}
	d, _, _ = l.Take(tat, now.Add(10*time.Second))
	if !d.Allowed || d.Remaining != 2 {
		t.Fatalf("after a long pause: %+v; want the full quota back", d)
	}
}

func TestParseLimit(t *testing.T) {
	tests := []struct {
		in      string
		want    ratelimit.Limit
		wantErr bool
	}{
		{"600/1m", ratelimit.Limit{Requests: 600, Window: time.Minute}, false},
		{"10/30s", ratelimit.Limit{Requests: 10, Window: 30 * time.Second}, false},
		{"off", ratelimit.Limit{}, false},
		{"0", ratelimit.Limit{}, false},
		{"600", ratelimit.Limit{}, true},
		{"-1/1m", ratelimit.Limit{}, true},
		{"5/soon", ratelimit.Limit{}, true},
	}
	for _, tt := range tests {
		got, err := ratelimit.ParseLimit(tt.in)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("ParseLimit(%q) = %v, %v; want %v, err %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
	if _, _, err := (ratelimit.Limit{}).Take(time.Time{}, time.Now()); err != ratelimit.ErrDisabled {
		t.Errorf("disabled Take err = %v", err)
	}
}

func TestTakeN(t *testing.T) {
	l := ratelimit.Limit{Requests: 10, Window: 10 * time.Second} // one back a second
	now := time.Unix(1000, 0)
	d, tat, err := l.TakeN(time.Time{}, now, 7)
	if err != nil || !d.Allowed || d.Remaining != 3 || d.Reset != 7*time.Second {
		t.Fatalf("7 of 10 = %+v, %v; want allowed, 3 remaining, Reset 7s", d, err)
	}
	d, same, err := l.TakeN(tat, now, 5)
	if err != nil || d.Allowed || !same.Equal(tat) {
		t.Fatalf("5 more = %+v, %v; want denied, state unchanged", d, err)
	}
	if d.Remaining != 3 || d.RetryAfter != 2*time.Second || d.Reset != 7*time.Second {
		t.Errorf("5 more = %+v; want 3 fitting now, all 5 after 2s, Reset 7s", d)
	}
	if d, _, _ := l.TakeN(tat, now.Add(2*time.Second), 5); !d.Allowed || d.Remaining != 0 {
		t.Errorf("5 more after 2s = %+v; want allowed, none left", d)
	}
	if d, _, _ := l.TakeN(tat, now, 3); !d.Allowed || d.Remaining != 0 {
		t.Errorf("the 3 left = %+v; want allowed", d)
	}
	if _, _, err := l.TakeN(time.Time{}, now, 11); err != ratelimit.ErrTooMany {
		t.Errorf("11 of 10: %v, want ErrTooMany", err)
	}
	if _, _, err := l.TakeN(time.Time{}, now, 0); err == nil {
		t.Error("0 requests: no error")
	}
	one, _, _ := l.Take(tat, now)
	n1, _, _ := l.TakeN(tat, now, 1)
	if one != n1 {
		t.Errorf("Take = %+v, TakeN(1) = %+v", one, n1)
	}
}
