package accounts

import "time"

// HoldPasswordSlots takes every slot of p, as that many running hashes
// would, until release is called.
func HoldPasswordSlots(p *Passwords) (release func()) {
	for range cap(p.slots) {
		p.slots <- struct{}{}
	}
	return func() {
		for range cap(p.slots) {
			<-p.slots
		}
	}
}

// SetClock makes a read time from now.
func SetClock(a *Accounts, now func() time.Time) { a.now = now }
