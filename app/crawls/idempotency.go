package crawls

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/crawl"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
)

// Keys keeps the Idempotency-Key records of creation requests: the report
// store's (ports.ReportStore), so a key names one request whatever it
// creates.
type Keys interface {
	ClaimIdempotency(ctx context.Context, idem report.Idempotency, now time.Time) (report.Idempotency, bool, error)
	ReleaseIdempotency(ctx context.Context, idem report.Idempotency) error
}

// Created is the answer of CreateOnce: the crawl, and whether an earlier
// request with the same Idempotency-Key created it.
type Created struct {
	crawl.Crawl
	Replayed bool
}

// CreateOnce is Create under the Idempotency-Key key ("" none), per user,
// with the rules of report creation: the first request claims the key and
// records its crawl in the crawl's transaction; the same request sent
// again creates nothing and answers the crawl as it is now
// (crawl.ErrNotFound when deleted since); the key with other settings is
// a *report.ValidationError on Idempotency-Key; while the first request
// runs, *reports.InProgressError. A request that fails releases the key.
// Without Config.Keys, a key is refused (a *report.ValidationError).
func (cs *Crawls) CreateOnce(ctx context.Context, userID int64, p crawl.Params, key string) (Created, error) {
	if key == "" {
		c, err := cs.Create(ctx, userID, p, nil)
		return Created{Crawl: c}, err
	}
	if err := report.CheckIdempotencyKey(key); err != nil {
		return Created{}, err
	}
	if cs.cfg.Keys == nil {
		return Created{}, report.Invalid(report.IdempotencyKeyField, "is not supported by this server for crawls")
	}
	s, err := crawl.NewSettings(p)
	if err != nil {
		return Created{}, err
	}
	now := cs.clock()
	idem := report.Idempotency{UserID: userID, Key: key, Claim: rand.Text(), Fingerprint: fingerprint(userID, key, s),
		LockedUntil: now.Add(reports.IdempotencyLock), ExpiresAt: now.Add(report.IdempotencyKeyTTL)}
	cur, claimed, err := cs.cfg.Keys.ClaimIdempotency(ctx, idem, now)
	if err != nil {
		return Created{}, err
	}
	if !claimed {
		if err := reports.CheckReplay(cur, idem.Fingerprint, now); err != nil {
			if errors.Is(err, report.ErrNotFound) {
				err = crawl.ErrNotFound
			}
			return Created{}, err
		}
		c, err := cs.store.Crawl(ctx, userID, cur.ReportIDs[0])
		return Created{Crawl: c, Replayed: true}, err
	}
	runCtx, cancel := context.WithDeadline(ctx, idem.LockedUntil)
	defer cancel()
	idem.Outcome = report.OutcomeAccepted
	c, err := cs.Create(runCtx, userID, p, &idem)
	if err != nil {
		return Created{}, reports.SettleKey(ctx, cs.cfg.Keys, idem, err)
	}
	return Created{Crawl: c}, nil
}

// fingerprint is the digest of a creation request that a replay must
// match: its validated settings (defaults applied), salted with the user
// and key so the digest of its password and headers is of no use elsewhere.
func fingerprint(userID int64, key string, s crawl.Settings) string {
	if s.Render == pagecheck.RenderOff {
		s.Render = "" // off keeps the fingerprints of requests from before rendering
	}
	b, _ := json.Marshal(s)
	sum := sha256.Sum256(fmt.Appendf(nil, "create-crawl\x00%d\x00%s\x00%s", userID, key, b))
	return hex.EncodeToString(sum[:])
}
