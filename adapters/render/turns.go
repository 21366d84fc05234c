package render

import (
	"context"
	"strconv"
	"sync"
)

// turns hands the pool's slots (Config.Contexts renders at once) to the
// parties waiting for one in turns: parties stand in a line, each with its
// own waiting renders in the order they came, and a freed slot goes to the
// first party of the line, which then goes to the back of the line if it
// still waits. So a render waits for at most one render of each other
// waiting party, not behind another party's backlog (a crawl's eight
// renders, say). A render without a party is a party of its own.
type turns struct {
	mu    sync.Mutex
	free  int
	line  []string             // parties with waiting renders, next first
	waits map[string][]*waiter // each party's waiting renders, oldest first
	anon  int                  // numbers the renders without a party
}

// waiter is one render waiting for a slot; ready is closed when it got one.
type waiter struct {
	ready   chan struct{}
	granted bool
}

// newTurns returns turns of n slots.
func newTurns(n int) *turns {
	return &turns{free: n, waits: map[string][]*waiter{}}
}

// take waits for a slot for party as long as ctx lets it: true with a
// slot (give it back with give), false when ctx ended first.
func (t *turns) take(ctx context.Context, party string) bool {
	t.mu.Lock()
	if party == "" {
		t.anon++
		party = "\x00" + strconv.Itoa(t.anon)
	}
	if t.free > 0 && len(t.line) == 0 {
		t.free--
		t.mu.Unlock()
		return true
	}
	w := &waiter{ready: make(chan struct{})}
	if _, queued := t.waits[party]; !queued {
		t.line = append(t.line, party)
	}
	t.waits[party] = append(t.waits[party], w)
	t.mu.Unlock()

	select {
	case <-w.ready:
		return true
	case <-ctx.Done():
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if w.granted { // the slot came as ctx ended: hand it on
		t.giveLocked()
		return false
	}
	t.dropLocked(party, w)
	return false
}

// give returns a slot: the next party in line gets it.
func (t *turns) give() {
	t.mu.Lock()
	t.giveLocked()
	t.mu.Unlock()
}

func (t *turns) giveLocked() {
	if len(t.line) == 0 {
		t.free++
		return
	}
	party := t.line[0]
	t.line = t.line[1:]
	ws := t.waits[party]
	w := ws[0]
	if len(ws) == 1 {
		delete(t.waits, party)
	} else {
		t.waits[party] = ws[1:]
		t.line = append(t.line, party)
	}
	w.granted = true
	close(w.ready)
}

// dropLocked forgets w, a waiting render of party whose ctx ended.
func (t *turns) dropLocked(party string, w *waiter) {
	ws := t.waits[party]
	for i, x := range ws {
		if x == w {
			ws = append(ws[:i:i], ws[i+1:]...)
			break
		}
	}
	if len(ws) > 0 {
		t.waits[party] = ws
		return
	}
	delete(t.waits, party)
	for i, p := range t.line {
		if p == party {
			t.line = append(t.line[:i:i], t.line[i+1:]...)
			break
		}
	}
}

// waiting counts the renders waiting for a slot.
func (t *turns) waiting() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, ws := range t.waits {
		n += len(ws)
	}
	return n
}
