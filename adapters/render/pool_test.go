package render

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pinsight/pinsight/domain/webpage"
	"github.com/pinsight/pinsight/ports"
)

// TestPoolBoundsRenders: with one context, concurrent renders take turns
// and all succeed; one whose context ends while it waits fails at once,
// transient, without a render.
func TestPoolBoundsRenders(t *testing.T) {
	fx := newFixtures(t)
	r := newTestRenderer(t, Config{Contexts: 1}, fx.host())
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Go(func() { _, errs[i] = render(t, r, fx.url("/bench.html"), nil) })
	}
	time.Sleep(200 * time.Millisecond) // the others are in the pool or waiting for it
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	r.slots.take(context.Background(), "holder") // hold a turn, so the next one must wait
	_, err := r.Render(ctx, fx.url("/bench.html"), ports.RenderOptions{}, nil)
	r.slots.give()
	var fe *webpage.FetchError
	if !errors.As(err, &fe) || !fe.Transient {
		t.Errorf("a render that found no turn: err = %v, want a transient failure", err)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("render %d: %v", i, err)
		}
	}
}

// TestPoolServesPartiesInTurns: with one context and Bob's five renders
// waiting, Alice's one render is the second to get the browser, not the
// sixth (a first-come pool served Bob's whole backlog first).
func TestPoolServesPartiesInTurns(t *testing.T) {
	fx := newFixtures(t)
	r := newTestRenderer(t, Config{Contexts: 1}, fx.host())
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r.slots.take(ctx, "holder") // nobody renders until every render waits
	var (
		mu    sync.Mutex
		order []string
		wg    sync.WaitGroup
	)
	do := func(party string) {
		_, err := r.Render(ctx, fx.url("/bench.html"), ports.RenderOptions{Party: party}, nil)
		if err != nil {
			t.Errorf("%s's render: %v", party, err)
		}
		mu.Lock()
		order = append(order, party)
		mu.Unlock()
	}
	for range 5 {
		wg.Go(func() { do("user:bob") })
	}
	waitWaiting(t, r.slots, 5)
	wg.Go(func() { do("user:alice") })
	waitWaiting(t, r.slots, 6)
	r.slots.give()
	wg.Wait()
	if i := slices.Index(order, "user:alice"); i != 1 {
		t.Errorf("renders ended in the order %v: Alice's is number %d, want 2 (after one of Bob's)", order, i+1)
	}
}

// waitWaiting waits until n renders wait for a turn.
func waitWaiting(t *testing.T, tu *turns, n int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if tu.waiting() == n {
			return
		}
	}
	t.Fatalf("%d renders wait for a turn, want %d", tu.waiting(), n)
}
