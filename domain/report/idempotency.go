package report

import (
	"fmt"
	"time"

	"github.com/pinsight/pinsight/domain/fault"
)

// Idempotency keys: a client names a creation request with a key of its
// choosing (the Idempotency-Key header), so that sending it again, after a
// lost answer or a crash, gives the first answer instead of a second report.
const (
	// IdempotencyKeyField names the key in validation errors: the header.
	IdempotencyKeyField = "Idempotency-Key"
	// maxIdempotencyKeyLen bounds a key's length.
	maxIdempotencyKeyLen = 255
	// IdempotencyKeyTTL is how long a key is remembered after the request
	// that first used it.
	IdempotencyKeyTTL = 24 * time.Hour
)

// CheckIdempotencyKey accepts 1 to maxIdempotencyKeyLen printable ASCII
// characters (space to tilde).
func CheckIdempotencyKey(k string) error {
	if k == "" || len(k) > maxIdempotencyKeyLen {
		return Invalid(IdempotencyKeyField, fmt.Sprintf("must be 1 to %d characters", maxIdempotencyKeyLen))
	}
	for i := range len(k) {
		if k[i] < ' ' || k[i] > '~' {
			return Invalid(IdempotencyKeyField, "must be printable ASCII characters (space to ~)")
		}
	}
	return nil
}

// Outcome is how a creation request was answered: what a replay of it
// answers again.
type Outcome uint8

// Outcomes of a creation request.
const (
	// OutcomeNone: the request has not finished, nothing is recorded.
	OutcomeNone Outcome = iota
	// OutcomeCreated: the report was analysed and stored, finished.
	OutcomeCreated
	// OutcomeAccepted: the reports were stored pending; their jobs finish
	// them.
	OutcomeAccepted
)

// Idempotency is what a store keeps of one request sent with an
// idempotency key, until ExpiresAt: the key is the user's own (another
// user's key of the same text is another record).
type Idempotency struct {
	UserID int64
	Key    string
	// Fingerprint is a digest of the request: the key sent again with
	// another request is refused.
	Fingerprint string
	// Claim is a random name of the request that holds the key while it
	// runs; it finishes or releases only its own claim.
	Claim string
	// Outcome is how the first request was answered, which a replay
	// answers again; OutcomeNone while the request runs.
	Outcome Outcome
	// ReportIDs are the reports the request created, in request order.
	ReportIDs []int64
	// LockedUntil bounds an unfinished request: past it, the request
	// counts as abandoned (its server stopped) and the key may be claimed
	// again. The request itself stops before then.
	LockedUntil time.Time
	// ExpiresAt is when the key is forgotten (and purged).
	ExpiresAt time.Time
}

// Done reports whether the request finished: its answer is recorded.
func (i Idempotency) Done() bool { return i.Outcome != OutcomeNone }

// Live reports whether the record still holds its key at now: finished and
// not expired, or still running within its lock.
func (i Idempotency) Live(now time.Time) bool {
	return now.Before(i.ExpiresAt) && (i.Done() || now.Before(i.LockedUntil))
}

// ErrClaimLost is returned when a request finishes under an idempotency
// claim it no longer holds (it was released, or taken over once its lock
// passed): nothing was stored.
var ErrClaimLost = fault.New(fault.Conflict, "site: the idempotency key is no longer held by this request")
