package ratelimit

import "sync"

// Slots caps how many things each client (a user id) has running at once
// in this process: analyses, webhook deliveries. The zero value is not
// usable; make one with NewSlots.
type Slots struct {
	mu      sync.Mutex
	max     int // negative: no cap
	running map[int64]int
}

// NewSlots returns slots allowing max at once per client; a negative max
// sets no cap.
func NewSlots(max int) *Slots { return &Slots{max: max, running: map[int64]int{}} }

// Max is the cap per client (negative: none).
func (s *Slots) Max() int { return s.max }

// Take claims one of client's slots and returns the function that gives it
// back; ok is false, and nothing is claimed, when all are taken.
func (s *Slots) Take(client int64) (release func(), ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.max >= 0 && s.running[client] >= s.max {
		return nil, false
	}
	s.running[client]++
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.running[client]--; s.running[client] <= 0 {
			delete(s.running, client)
		}
	}, true
}
