package reports

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/pinsight/pinsight/domain/fault"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
)

// IdempotencyLock is how long a request sent with an idempotency key may
// run: it is stopped by then, and past it the key counts as abandoned (its
// server stopped mid-request) so a retry runs the request again.
const IdempotencyLock = time.Minute

// maxInProgressRetry bounds the wait of InProgressError: the first
// request usually finishes within seconds.
const maxInProgressRetry = 5 * time.Second

// releaseTimeout bounds the release of a failed request's key, which runs
// even when the request's own context has ended.
const releaseTimeout = 5 * time.Second

// InProgressError is the answer to a request whose idempotency key a
// request still running holds: it is not run a second time. It is a
// fault.Conflict.
type InProgressError struct {
	Wait time.Duration // until the first request's answer is likely ready
}

func (e *InProgressError) Error() string {
	return "reports: a request with this Idempotency-Key is still running: retry after " + strconv.Itoa(RetryAfterSeconds(e.Wait)) + " s for its answer"
}

// Kind implements fault.Kinder.
func (e *InProgressError) Kind() fault.Kind { return fault.Conflict }

// RetryAfter implements fault.RetryAfterer.
func (e *InProgressError) RetryAfter() time.Duration { return e.Wait }

// createOnce is Create under the idempotency key in.IdempotencyKey, per
// user: the first request claims the key, runs (at most IdempotencyLock)
// and records its answer in the report's transaction. A later request
// with the key and the same input runs nothing and answers the first
// request's outcome with the report's current state (report.ErrNotFound when
// it was deleted since); with other input it is refused (a
// *report.ValidationError on the key);
// while the first still runs it is *InProgressError. A request that fails
// releases the key, so a retry runs again. Keys are remembered for
// report.IdempotencyKeyTTL.
func (rs *Reports) createOnce(ctx context.Context, userID int64, in NewReport, privacy report.Privacy, password string, schedule report.Schedule, mode pagecheck.RenderMode, shots report.ScreenshotMode, wait time.Duration) (Created, error) {
	idem, cur, claimed, now, err := rs.claimKey(ctx, userID, in.IdempotencyKey,
		createFingerprint(userID, in.IdempotencyKey, in.URL, privacy, password, mode, shots))
	if err != nil {
		return Created{}, err
	}
	if !claimed {
		return rs.replay(ctx, cur, idem.Fingerprint, now)
	}
	runCtx, cancel := context.WithDeadline(ctx, idem.LockedUntil) // done before another request may take the key over
	defer cancel()
	created, err := rs.create(runCtx, userID, in.URL, privacy, password, schedule, mode, shots, &idem, wait)
	if err != nil {
		return Created{}, rs.settleKey(ctx, idem, err)
	}
	return created, nil
}

// claimKey checks key and claims it for userID with the request's
// fingerprint. When claimed is false, cur is the live record of an earlier
// request with the key (see checkReplay); now is the time of the claim.
func (rs *Reports) claimKey(ctx context.Context, userID int64, key, fingerprint string) (idem, cur report.Idempotency, claimed bool, now time.Time, err error) {
	if err := report.CheckIdempotencyKey(key); err != nil {
		return idem, cur, false, now, err
	}
	now = rs.clock()
	idem = report.Idempotency{UserID: userID, Key: key, Claim: rand.Text(), Fingerprint: fingerprint,
		LockedUntil: now.Add(IdempotencyLock), ExpiresAt: now.Add(report.IdempotencyKeyTTL)}
	cur, claimed, err = rs.store.ClaimIdempotency(ctx, idem, now)
	return idem, cur, claimed, now, err
}

// settleKey is SettleKey on the report store.
func (rs *Reports) settleKey(ctx context.Context, idem report.Idempotency, err error) error {
	return SettleKey(ctx, rs.store, idem, err)
}

// KeyReleaser releases an unfinished Idempotency-Key record
// (ports.ReportStore.ReleaseIdempotency).
type KeyReleaser interface {
	ReleaseIdempotency(ctx context.Context, idem report.Idempotency) error
}

// SettleKey is the answer to a request under idem whose work failed with
// err: *InProgressError when another request took the key over meanwhile,
// else err, the key released from store so a retry runs again (at worst it
// stays held until its lock passes).
func SettleKey(ctx context.Context, store KeyReleaser, idem report.Idempotency, err error) error {
	if errors.Is(err, report.ErrClaimLost) {
		return &InProgressError{Wait: time.Second}
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
	defer cancel()
	_ = store.ReleaseIdempotency(rctx, idem)
	return err
}

// CheckReplay refuses the replay of live record cur by a request whose
// fingerprint differs (a *report.ValidationError), or while the first request runs
// (*InProgressError), or when it created nothing (report.ErrNotFound).
func CheckReplay(cur report.Idempotency, fingerprint string, now time.Time) error {
	switch {
	case cur.Fingerprint != fingerprint:
		return report.Invalid(report.IdempotencyKeyField,
			"was used for a request with other input in the last 24 hours: send a new key for a new request")
	case !cur.Done():
		return &InProgressError{Wait: min(cur.LockedUntil.Sub(now), maxInProgressRetry)}
	case len(cur.ReportIDs) == 0:
		return report.ErrNotFound
	}
	return nil
}

// replay answers a request whose key the live record cur holds.
func (rs *Reports) replay(ctx context.Context, cur report.Idempotency, fingerprint string, now time.Time) (Created, error) {
	if err := CheckReplay(cur, fingerprint, now); err != nil {
		return Created{}, err
	}
	r, err := rs.store.Report(ctx, cur.UserID, cur.ReportIDs[0])
	if err != nil {
		return Created{}, err
	}
	return Created{Report: r, Outcome: cur.Outcome, Replayed: true}, nil
}

// createFingerprint is the digest of a creation request that a replay must
// match: its URL, privacy and password (as effective: an omitted privacy
// is the default, an empty password none). The user and key salt it, so
// the digest of a password is of no use elsewhere; it is forgotten with
// the key.
func createFingerprint(userID int64, key, url string, privacy report.Privacy, password string, mode pagecheck.RenderMode, shots report.ScreenshotMode) string {
	b := fmt.Appendf(nil, "create-report\x00%d\x00%s\x00%s\x00%d\x00%s", userID, key, url, privacy, password)
	if mode != pagecheck.RenderOff { // off keeps the fingerprints of requests from before rendering
		b = fmt.Appendf(b, "\x00render=%s", mode)
	}
	if shots == report.ScreenshotFull { // viewport keeps the fingerprints of requests from before screenshots
		b = fmt.Appendf(b, "\x00screenshot=%s", shots)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
