package postgres

import (
	"context"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/pinsight/pinsight/domain/site"
)

type idempotencyRow struct {
	bun.BaseModel `bun:"table:idempotency_keys,alias:k"`

	UserID      int64     `bun:"user_id,pk"`
	Key         string    `bun:"key,pk"`
	Fingerprint string    `bun:"fingerprint"`
	Claim       string    `bun:"claim"`
	HTTPStatus  int       `bun:"http_status"`
	ReportIDs   []int64   `bun:"report_ids,array"`
	LockedUntil time.Time `bun:"locked_until"`
	ExpiresAt   time.Time `bun:"expires_at"`
}

func (row idempotencyRow) toDomain() site.Idempotency {
	i := site.Idempotency{UserID: row.UserID, Key: row.Key, Fingerprint: row.Fingerprint, Claim: row.Claim, Outcome: outcomeFromColumn(row.HTTPStatus),
		ReportIDs: row.ReportIDs, LockedUntil: row.LockedUntil.UTC(), ExpiresAt: row.ExpiresAt.UTC()}
	if len(i.ReportIDs) == 0 {
		i.ReportIDs = nil
	}
	return i
}

// ClaimIdempotency implements ports.ReportStore, in one transaction: purge,
// then an upsert that replaces only a record that is not live; a
// concurrent claim of the same key waits for this one's row and sees it.
func (s *ReportStore) ClaimIdempotency(ctx context.Context, idem site.Idempotency, now time.Time) (site.Idempotency, bool, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	idem.Outcome, idem.ReportIDs = site.OutcomeNone, nil
	var out site.Idempotency
	claimed := false
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewDelete().Model((*idempotencyRow)(nil)).Where("expires_at <= ?", now).Exec(ctx); err != nil {
			return wrap("purge idempotency keys", err)
		}
		row := idempotencyRow{UserID: idem.UserID, Key: idem.Key, Fingerprint: idem.Fingerprint, Claim: idem.Claim,
			ReportIDs: []int64{}, LockedUntil: idem.LockedUntil, ExpiresAt: idem.ExpiresAt}
		res, err := tx.NewInsert().Model(&row).
			On("CONFLICT (user_id, key) DO UPDATE").
			Set("fingerprint = EXCLUDED.fingerprint, claim = EXCLUDED.claim, http_status = 0, report_ids = '{}'").
			Set("locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at").
			Where("k.expires_at <= ? OR (k.http_status = 0 AND k.locked_until <= ?)", now, now).
			Returning("NULL").Exec(ctx)
		if err != nil {
			return wrap("claim idempotency key", err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			out, claimed = row.toDomain(), true
			return nil
		}
		// A live record holds the key; the upsert locked its row.
		var cur idempotencyRow
		if err := tx.NewSelect().Model(&cur).Where("user_id = ? AND key = ?", idem.UserID, idem.Key).Scan(ctx); err != nil {
			return wrap("read idempotency key", err)
		}
		out = cur.toDomain()
		return nil
	})
	if err != nil {
		return site.Idempotency{}, false, txErr("claim idempotency key", err)
	}
	return out, claimed, nil
}

// ReleaseIdempotency implements ports.ReportStore.
func (s *ReportStore) ReleaseIdempotency(ctx context.Context, idem site.Idempotency) error {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	_, err := s.db.NewDelete().Model((*idempotencyRow)(nil)).
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
	res, err := tx.NewUpdate().Model((*idempotencyRow)(nil)).Set("http_status = ?", outcomeColumn(idem.Outcome)).Set("report_ids = ?", pgArray(ids)).
		Where("user_id = ? AND key = ? AND claim = ? AND http_status = 0", idem.UserID, idem.Key, idem.Claim).Exec(ctx)
	if err != nil {
		return wrap("finish idempotency key", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return site.ErrClaimLost
	}
	return nil
}

// pgArray is ids as a PostgreSQL array value.
func pgArray(ids []int64) any { return pgdialect.Array(ids) }

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
