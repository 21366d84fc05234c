package render

import (
	"context"
	"errors"
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
	r.slots <- struct{}{} // hold a turn, so the next one must wait
	_, err := r.Render(ctx, fx.url("/bench.html"), ports.RenderOptions{}, nil)
	<-r.slots
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
