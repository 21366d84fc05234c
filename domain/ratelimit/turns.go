package ratelimit

import "time"

// Party is what a limit shared in turns (Limit.TakeTurn) remembers of one
// party (a user) of a key: its last grant, and while it waits for a turn,
// since and until when.
type Party struct {
	Granted time.Time // the last request granted (zero: none remembered)
	Since   time.Time // waiting since (zero: not waiting)
	Until   time.Time // the wait's claim lapses after this unless asked again
}

// waiting reports whether p holds a claim to a turn at now.
func (p Party) waiting(now time.Time) bool { return !p.Since.IsZero() && !p.Until.Before(now) }

// ahead reports whether party a, named an, comes before b, named bn, in
// turn: the one granted longer ago (never: first), then the one waiting
// longer, then the name.
func ahead(a Party, an string, b Party, bn string) bool {
	switch {
	case !a.Granted.Equal(b.Granted):
		return a.Granted.Before(b.Granted)
	case !a.Since.Equal(b.Since):
		return a.Since.Before(b.Since)
	}
	return an < bn
}

// TurnGrace is how long past the RetryAfter it was told a waiting party
// keeps its claim to its turn: the time its work may take to come back
// (a queue's snooze and poll: River moves snoozed jobs to available every
// 5 s and polls every second). At least one interval of the limit.
const TurnGrace = 10 * time.Second

// TakeTurn is Take for one party of a key whose requests several parties
// share in turns: the key's quota (state tat, as Take's) is the whole
// budget, whoever asks, and a free request goes to the waiting party whose
// turn it is, the one granted longest ago (a party never granted first;
// then the one waiting longest). So a party asking once waits for no more
// than the parties ahead of it in turn, one request each, however many
// requests another party has queued. party is granted when more requests
// are free now than waiting parties are ahead of it; then its wait ends and
// its grant is recorded. Denied, it waits: RetryAfter is until its turn
// would come (one request free for each party ahead and one for it), and
// its claim holds until then plus TurnGrace (at least one interval); a
// party that does not ask again by then is no longer waited for. parties
// holds the key's parties and is updated in place (parties no longer
// waiting and granted more than a Span ago are dropped). It returns the
// decision and the key's quota state to store (unchanged when denied).
func (l Limit) TakeTurn(tat time.Time, parties map[string]Party, party string, now time.Time) (Decision, time.Time, error) {
	if err := l.Check(1); err != nil {
		return Decision{}, tat, err
	}
	interval, span := l.Interval(), l.Span()
	for name, p := range parties {
		if !p.waiting(now) {
			p.Since, p.Until = time.Time{}, time.Time{}
			parties[name] = p
			if !p.Granted.Add(span).After(now) {
				delete(parties, name)
			}
		}
	}
	me := parties[party]
	if me.Since.IsZero() {
		me.Since = now
	}
	before := 0
	for name, p := range parties {
		if name != party && p.waiting(now) && ahead(p, name, me, party) {
			before++
		}
	}
	from := tat
	if from.Before(now) {
		from = now
	}
	free := int((now.Sub(from) + span) / interval) // requests free now
	if free > before {
		d, next, err := l.TakeN(tat, now, 1)
		if err == nil && d.Allowed {
			parties[party] = Party{Granted: now}
			return d, next, nil
		}
	}
	// Its turn: when before+1 requests are free.
	at := from.Add(-span + interval*time.Duration(before+1))
	d := Decision{Limit: l.Requests, RetryAfter: max(at.Sub(now), time.Nanosecond), Reset: from.Sub(now)}
	me.Until = at.Add(max(TurnGrace, interval))
	parties[party] = me
	return d, tat, nil
}
