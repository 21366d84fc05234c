package render

import (
	"context"
	"slices"
	"testing"
	"time"
)

// grants starts one take per party (in that order, each waiting before the
// next starts) on a full t, then gives the slot back after each grant and
// returns the parties in the order they got it.
func grants(t *testing.T, tu *turns, parties ...string) []string {
	t.Helper()
	got := make(chan string, len(parties))
	for i, p := range parties {
		go func() {
			if tu.take(context.Background(), p) {
				got <- p
			}
		}()
		waitWaiting(t, tu, i+1)
	}
	var order []string
	for range parties {
		tu.give()
		order = append(order, <-got)
	}
	return order
}

func TestTurnsAlternateParties(t *testing.T) {
	tu := newTurns(1)
	tu.take(context.Background(), "holder")
	got := grants(t, tu, "bob", "bob", "bob", "bob", "alice", "carol", "alice")
	want := []string{"bob", "alice", "carol", "bob", "alice", "bob", "bob"}
	if !slices.Equal(got, want) {
		t.Errorf("grants %v, want %v", got, want)
	}
}

func TestTurnsWithoutPartyAreEachTheirOwn(t *testing.T) {
	tu := newTurns(1)
	tu.take(context.Background(), "holder")
	got := grants(t, tu, "bob", "bob", "", "")
	want := []string{"bob", "", "", "bob"}
	if !slices.Equal(got, want) {
		t.Errorf("grants %v, want %v", got, want)
	}
}

func TestTurnsFreeSlotsAreTakenAtOnce(t *testing.T) {
	tu := newTurns(2)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	for i := range 2 {
		if !tu.take(ctx, "a") {
			t.Fatalf("two slots: take %d waits", i+1)
		}
	}
	short, stop := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer stop()
	if tu.take(short, "b") {
		t.Fatal("a third take got a slot of two")
	}
	if n := tu.waiting(); n != 0 {
		t.Errorf("a take whose context ended still waits (%d waiting)", n)
	}
	tu.give()
	if !tu.take(ctx, "b") {
		t.Error("a slot given back was not taken")
	}
}

// TestTurnsCancelledWaiterHandsItsSlotOn: a waiter that leaves is dropped
// from the line, and the slot goes to the next party.
func TestTurnsCancelledWaiterHandsItsSlotOn(t *testing.T) {
	tu := newTurns(1)
	tu.take(context.Background(), "holder")
	ctx, cancel := context.WithCancel(context.Background())
	left := make(chan bool)
	go func() { left <- tu.take(ctx, "bob") }()
	waitWaiting(t, tu, 1)
	got := make(chan bool)
	go func() { got <- tu.take(context.Background(), "alice") }()
	waitWaiting(t, tu, 2)
	cancel()
	if <-left {
		t.Fatal("a take whose context ended got a slot")
	}
	tu.give()
	select {
	case <-got:
	case <-time.After(30 * time.Second):
		t.Fatal("the slot given back did not reach the next party")
	}
	tu.give()
	if !tu.take(context.Background(), "x") {
		t.Error("the slot was lost")
	}
}
