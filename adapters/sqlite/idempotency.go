package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/site"
)

type idempotencyRow struct {
	bun.BaseModel `bun:"table:idempotency_keys,alias:k"`

	UserID      int64  `bun:"user_id,pk"`
	Key         string `bun:"key,pk"`
	Fingerprint string `bun:"fingerprint"`
	Claim       string `bun:"claim"`
	HTTPStatus  int    `bun:"http_status"`
	ReportIDs   string `bun:"report_ids"` // a JSON array
	LockedUntil stamp  `bun:"locked_until"`
	ExpiresAt   stamp  `bun:"expires_at"`
}

func (row idempotencyRow) toDomain() (site.Idempotency, error) {
	i := site.Idempotency{UserID: row.UserID, Key: row.Key, Fingerprint: row.Fingerprint, Claim: row.Claim, Outcome: outcomeFromColumn(row.HTTPStatus),
		LockedUntil: row.LockedUntil.utc(), ExpiresAt: row.ExpiresAt.utc()}
	if err := json.Unmarshal([]byte(row.ReportIDs), &i.ReportIDs); err != nil {
		return site.Idempotency{}, fmt.Errorf("sqlite: idempotency key of user %d: decode report ids: %w", row.UserID, err)
	}
	if len(i.ReportIDs) == 0 {
		i.ReportIDs = nil
	}
	return i, nil
}

// ClaimIdempotency implements ports.ReportStore, in one IMMEDIATE
// transaction: purge, read, replace.
func (s *ReportStore) ClaimIdempotency(ctx context.Context, idem site.Idempotency, now time.Time) (site.Idempotency, bool, error) {
	if holdsNUL(idem.Key) {
		return site.Idempotency{}, false, errors.New("sqlite: an idempotency key cannot hold NUL")
	}
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	idem.Outcome, idem.ReportIDs = site.OutcomeNone, nil
	out, claimed := idem, true
	err := s.db.inTx(ctx, "claim idempotency key", func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewDelete().Model((*idempotencyRow)(nil)).Where("expires_at <= ?", stampOf(now)).Exec(ctx); err != nil {
			return wrap("purge idempotency keys", err)
		}
		var row idempotencyRow
		err := tx.NewSelect().Model(&row).Where("user_id = ? AND key = ?", idem.UserID, idem.Key).Scan(ctx)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return wrap("read idempotency key", err)
		default:
			cur, err := row.toDomain()
			if err != nil {
				return err
			}
			if cur.Live(now) {
				out, claimed = cur, false
				return nil
			}
			if _, err := tx.NewDelete().Model(&row).WherePK().Exec(ctx); err != nil {
				return wrap("replace idempotency key", err)
			}
		}
		row = idempotencyRow{UserID: idem.UserID, Key: idem.Key, Fingerprint: idem.Fingerprint, Claim: idem.Claim, ReportIDs: "[]",
			LockedUntil: stampOf(idem.LockedUntil), ExpiresAt: stampOf(idem.ExpiresAt)}
		if _, err := tx.NewInsert().Model(&row).Exec(ctx); err != nil {
			return wrap("claim idempotency key", err)
		}
		out.LockedUntil, out.ExpiresAt = row.LockedUntil.utc(), row.ExpiresAt.utc()
		return nil
	})
	if err != nil {
		return site.Idempotency{}, false, err
	}
	return out, claimed, nil
}

// ReleaseIdempotency implements ports.ReportStore.
func (s *ReportStore) ReleaseIdempotency(ctx context.Context, idem site.Idempotency) error {
	if holdsNUL(idem.Key) {
		return nil
	}
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	_, err := s.db.write.NewDelete().Model((*idempotencyRow)(nil)).
		Where("user_id = ? AND key = ? AND claim = ? AND http_status = 0", idem.UserID, idem.Key, idem.Claim).Exec(ctx)
	if err != nil {
		return wrap("release idempotency key", err)
	}
	return nil
}

// finishIdempotency records, within tx, the answer of the request holding
// idem's claim and the reports it created; site.ErrClaimLost when the
// claim is no longer held.
func finishIdempotency(ctx context.Context, tx bun.Tx, idem site.Idempotency, ids []int64) error {
	raw, err := json.Marshal(ids)
	if err != nil {
		return err
	}
	res, err := tx.NewUpdate().Model((*idempotencyRow)(nil)).Set("http_status = ?", outcomeColumn(idem.Outcome)).Set("report_ids = ?", string(raw)).
		Where("user_id = ? AND key = ? AND claim = ? AND http_status = 0", idem.UserID, idem.Key, idem.Claim).Exec(ctx)
	if err != nil {
		return wrap("finish idempotency key", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return site.ErrClaimLost
	}
	return nil
}

// outcomeColumn is the http_status value stored for o: the status earlier
// versions stored (201 created, 202 accepted; 0 unfinished), so the rows of
// either version replay alike.
func outcomeColumn(o site.Outcome) int {
	switch o {
	case site.OutcomeCreated:
		return 201
	case site.OutcomeAccepted:
		return 202
	}
	return 0
}

// outcomeFromColumn reads an http_status value: 0 unfinished, 202
// accepted, any other status (201 in practice) created.
func outcomeFromColumn(status int) site.Outcome {
	switch status {
	case 0:
		return site.OutcomeNone
	case 202:
		return site.OutcomeAccepted
	}
	return site.OutcomeCreated
}
