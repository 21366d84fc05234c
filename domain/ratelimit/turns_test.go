package ratelimit_test

import (
	"slices"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/ratelimit"
)

// turnKey is one key's state under TakeTurn.
type turnKey struct {
	limit   ratelimit.Limit
	tat     time.Time
	parties map[string]ratelimit.Party
}

func (k *turnKey) take(t *testing.T, party string, now time.Time) ratelimit.Decision {
	t.Helper()
	d, tat, err := k.limit.TakeTurn(k.tat, k.parties, party, now)
	if err != nil {
		t.Fatal(err)
	}
	k.tat = tat
	return d
}

// TestTakeTurnAlternates: Bob asks for every request the moment it is
// free; once Alice asks, the next free request is hers, and from then on,
// both waiting, they alternate. The key never grants more than its quota.
func TestTakeTurnAlternates(t *testing.T) {
	k := &turnKey{limit: ratelimit.Limit{Requests: 2, Window: 2 * time.Second}, parties: map[string]ratelimit.Party{}}
	t0 := time.Unix(1e9, 0)
	for i, want := range []bool{true, true, false} { // the burst, then the throttle
		if d := k.take(t, "bob", t0); d.Allowed != want {
			t.Fatalf("Bob's request %d = %+v, want allowed %v", i, d, want)
		}
	}
	// Alice asks, then Bob asks again first when the next request is free.
	d := k.take(t, "alice", t0.Add(100*time.Millisecond))
	if d.Allowed || d.RetryAfter != 900*time.Millisecond {
		t.Fatalf("Alice's first ask = %+v, want denied until the next request is free", d)
	}
	at := t0.Add(time.Second)
	if d := k.take(t, "bob", at); d.Allowed || d.RetryAfter != time.Second {
		t.Fatalf("Bob at Alice's turn = %+v, want denied for one interval", d)
	}
	if d := k.take(t, "alice", at.Add(300*time.Millisecond)); !d.Allowed {
		t.Fatalf("Alice at her turn = %+v, want allowed", d)
	}
	// Both waiting from now on: they alternate, one a second.
	var got []string
	for s := 2; s < 8; s++ {
		now := t0.Add(time.Duration(s) * time.Second)
		for _, p := range []string{"alice", "bob", "alice"} {
			if d := k.take(t, p, now); d.Allowed {
				got = append(got, p)
			}
		}
	}
	if want := []string{"bob", "alice", "bob", "alice", "bob", "alice"}; !slices.Equal(got, want) {
		t.Errorf("grants = %v, want %v", got, want)
	}
}

// TestTakeTurnAlone: a party alone gets every request the quota allows, as
// Take would; free requests beyond the parties ahead go to whoever asks.
func TestTakeTurnAlone(t *testing.T) {
	k := &turnKey{limit: ratelimit.Limit{Requests: 3, Window: 3 * time.Second}, parties: map[string]ratelimit.Party{}}
	t0 := time.Unix(1e9, 0)
	k.take(t, "bob", t0)
	k.take(t, "bob", t0)
	// Alice waits for a request with one free: hers; then none for Bob.
	k.parties["alice"] = ratelimit.Party{Since: t0, Until: t0.Add(time.Hour)}
	if d := k.take(t, "bob", t0); d.Allowed {
		t.Fatalf("Bob with Alice waiting and one request free = %+v, want denied", d)
	}
	if d := k.take(t, "alice", t0); !d.Allowed {
		t.Fatalf("Alice = %+v, want allowed", d)
	}
	allowed := 0
	for s := range 10 {
		if d := k.take(t, "bob", t0.Add(time.Duration(s+1)*time.Second)); d.Allowed {
			allowed++
		}
	}
	if allowed != 10 {
		t.Errorf("Bob alone got %d of 10 requests a second apart, want all", allowed)
	}
}

// TestTakeTurnClaimLapses: a party that does not come back for its turn
// holds it up to TurnGrace past its RetryAfter, then no longer.
func TestTakeTurnClaimLapses(t *testing.T) {
	k := &turnKey{limit: ratelimit.Limit{Requests: 1, Window: time.Second}, parties: map[string]ratelimit.Party{}}
	t0 := time.Unix(1e9, 0)
	k.take(t, "bob", t0)
	d := k.take(t, "alice", t0)
	if d.Allowed {
		t.Fatal("Alice allowed over the quota")
	}
	due := t0.Add(d.RetryAfter)
	if d := k.take(t, "bob", due.Add(ratelimit.TurnGrace-time.Millisecond)); d.Allowed {
		t.Errorf("Bob within Alice's grace = %+v, want denied", d)
	}
	if d := k.take(t, "bob", due.Add(ratelimit.TurnGrace+time.Millisecond)); !d.Allowed {
		t.Errorf("Bob after Alice's claim lapsed = %+v, want allowed", d)
	}
	if len(k.parties) != 1 {
		t.Errorf("parties = %v, want Bob's alone (Alice's lapsed, never granted)", k.parties)
	}
}
