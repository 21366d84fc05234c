package sqlstore

import (
	"context"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/report"
)

type idempotencyRow struct {
	bun.BaseModel `bun:"table:idempotency_keys,alias:k"`

	UserID      int64  `bun:"user_id,pk"`
	Key         string `bun:"key,pk"`
	Fingerprint string `bun:"fingerprint"`
	Claim       string `bun:"claim"`
	Outcome     int    `bun:"http_status"` // as statusOf stores it
	ReportIDs   idList `bun:"report_ids"`
	LockedUntil stamp  `bun:"locked_until"`
	ExpiresAt   stamp  `bun:"expires_at"`
}

func (row idempotencyRow) toDomain() report.Idempotency {
	i := report.Idempotency{UserID: row.UserID, Key: row.Key, Fingerprint: row.Fingerprint, Claim: row.Claim, Outcome: outcomeOf(row.Outcome),
		ReportIDs: row.ReportIDs, LockedUntil: row.LockedUntil.utc(), ExpiresAt: row.ExpiresAt.utc()}
	if len(i.ReportIDs) == 0 {
		i.ReportIDs = nil
	}
	return i
}

// ClaimIdempotency implements ports.ReportStore, in one transaction: purge
// the expired records, then an upsert that replaces only a record that is
// not live; a concurrent claim of the same key waits for this one's row
// (SQLite: for the file's write lock) and sees it.
func (s *ReportStore) ClaimIdempotency(ctx context.Context, idem report.Idempotency, now time.Time) (report.Idempotency, bool, error) {
	if s.dialect.unstorable(idem.Key) {
		return report.Idempotency{}, false, errors.New(s.e.Name + ": an idempotency key cannot hold NUL or invalid UTF-8")
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var out report.Idempotency
	claimed := false
	err := s.inTx(ctx, "claim idempotency key", func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewDelete().Model((*idempotencyRow)(nil)).Where("expires_at <= ?", stampOf(now)).Exec(ctx); err != nil {
			return s.wrap("purge idempotency keys", err)
		}
		row := idempotencyRow{UserID: idem.UserID, Key: idem.Key, Fingerprint: idem.Fingerprint, Claim: idem.Claim,
			ReportIDs: idList{}, LockedUntil: stampOf(idem.LockedUntil), ExpiresAt: stampOf(idem.ExpiresAt)}
		res, err := tx.NewInsert().Model(&row).
			On("CONFLICT (user_id, key) DO UPDATE").
			Set("fingerprint = EXCLUDED.fingerprint, claim = EXCLUDED.claim, http_status = 0, report_ids = EXCLUDED.report_ids").
			Set("locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at").
			Where("k.expires_at <= ? OR (k.http_status = 0 AND k.locked_until <= ?)", stampOf(now), stampOf(now)).
			Returning("NULL").Exec(ctx)
		if err != nil {
			return s.wrap("claim idempotency key", err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			out, claimed = row.toDomain(), true
			return nil
		}
		// A live record holds the key; the upsert locked its row.
		var cur idempotencyRow
		if err := tx.NewSelect().Model(&cur).Where("user_id = ? AND key = ?", idem.UserID, idem.Key).Scan(ctx); err != nil {
			return s.wrap("read idempotency key", err)
		}
		out = cur.toDomain()
		return nil
	})
	if err != nil {
		return report.Idempotency{}, false, err
	}
	return out, claimed, nil
}

// ReleaseIdempotency implements ports.ReportStore.
func (s *ReportStore) ReleaseIdempotency(ctx context.Context, idem report.Idempotency) error {
	if s.dialect.unstorable(idem.Key) {
		return nil
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	_, err := s.e.Write.NewDelete().Model((*idempotencyRow)(nil)).
		Where("user_id = ? AND key = ? AND claim = ? AND http_status = 0", idem.UserID, idem.Key, idem.Claim).Exec(ctx)
	return s.wrap("release idempotency key", err)
}

// finishIdempotency records, within tx, the answer of the request holding
// idem's claim and the reports it created; report.ErrClaimLost when the
// claim is no longer held.
func (s store) finishIdempotency(ctx context.Context, tx bun.Tx, idem report.Idempotency, ids []int64) error {
	res, err := tx.NewUpdate().Model((*idempotencyRow)(nil)).Set("http_status = ?", statusOf(idem.Outcome)).Set("report_ids = ?", idList(ids)).
		Where("user_id = ? AND key = ? AND claim = ? AND http_status = 0", idem.UserID, idem.Key, idem.Claim).Exec(ctx)
	if err != nil {
		return s.wrap("finish idempotency key", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return report.ErrClaimLost
	}
	return nil
}

// statusOf is the http_status value stored for o: the HTTP status earlier
// versions stored (201 created, 202 accepted; 0 unfinished), so the rows of
// either version replay alike.
func statusOf(o report.Outcome) int {
	switch o {
	case report.OutcomeCreated:
		return 201
	case report.OutcomeAccepted:
		return 202
	}
	return 0
}

// outcomeOf reads an http_status value: 0 unfinished, 202 accepted, any
// other status (201 in practice) created.
func outcomeOf(status int) report.Outcome {
	switch status {
	case 0:
		return report.OutcomeNone
	case 202:
		return report.OutcomeAccepted
	}
	return report.OutcomeCreated
}
