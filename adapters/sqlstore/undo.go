package sqlstore

import (
	"context"
	"log/slog"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/domain/webhook"
)

// undoPatience is how long an unacknowledged creation is tried to be undone
// (undoCreated) before giving up: longer than a database is usually paused
// or restarting.
const undoPatience = 15 * time.Minute

// inCreateTx runs fn, which inserts rows (and finishes idem), in a
// transaction as inTx does. When the transaction fails with its end
// unknown (BEGIN or COMMIT got no answer in time: a stalled database may
// still commit it when it wakes up) the caller answers a failure, so the
// rows are undone in the background (undoCreated) to keep that answer
// true: a report answered as not created never appears later.
func (s store) inCreateTx(ctx context.Context, op string, rows []reportRow, idem *report.Idempotency, fn func(ctx context.Context, tx bun.Tx) error) error {
	var inner error
	err := s.inTx(ctx, op, func(ctx context.Context, tx bun.Tx) error {
		inner = fn(ctx, tx)
		return inner
	})
	if err != nil && inner == nil {
		go s.undoCreated(rows, idem)
	}
	return err
}

// undoCreated deletes rows (found by their share tokens), their queued
// analyses, their pending webhook deliveries and the Idempotency-Key record idem finished, trying again with
// backoff while the database is unavailable, for undoPatience. Each try
// first locks the rows' users, which the creating transaction locked too
// (lockUsers): the try waits for that transaction to end, so it sees its
// rows if it committed after all.
func (s store) undoCreated(rows []reportRow, idem *report.Idempotency) {
	tokens := make([]string, len(rows))
	for i, row := range rows {
		tokens[i] = row.Token
	}
	give := time.Now().Add(undoPatience)
	for wait := time.Second; ; wait = min(2*wait, 30*time.Second) {
		n, err := s.deleteCreated(rows, tokens, idem)
		if err == nil {
			if n > 0 {
				slog.Warn(s.e.Name+": undid reports committed after their creation was answered as failed", "reports", n)
			}
			return
		}
		if time.Now().After(give) {
			slog.Error(s.e.Name+": could not undo an unacknowledged creation of reports", "tokens", len(tokens), "err", err)
			return
		}
		time.Sleep(wait)
	}
}

// deleteCreated is one try of undoCreated; it returns how many reports it
// deleted.
func (s store) deleteCreated(rows []reportRow, tokens []string, idem *report.Idempotency) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), s.e.Timeout)
	defer cancel()
	var ids []int64
	err := s.inTx(ctx, "undo created reports", func(ctx context.Context, tx bun.Tx) error {
		if err := s.lockUsers(ctx, tx, rows); err != nil {
			return err
		}
		if err := tx.NewSelect().Model((*reportRow)(nil)).Column("id").Where("token IN (?)", bun.List(tokens)).Scan(ctx, &ids); err != nil {
			return s.wrap("find created reports", err)
		}
		if len(ids) > 0 {
			if _, err := tx.NewDelete().Model((*reportRow)(nil)).Where("id IN (?)", bun.List(ids)).Exec(ctx); err != nil {
				return s.wrap("delete created reports", err)
			}
			if err := s.dropQueuedJobs(ctx, tx, "IN (?)", bun.List(ids)); err != nil {
				return err
			}
			// Their report.finished events were never true: their
			// delivery jobs find nothing to send.
			if _, err := tx.NewDelete().Model((*deliveryRow)(nil)).Where("report_id IN (?) AND status = ?", bun.List(ids), string(webhook.DeliveryPending)).Exec(ctx); err != nil {
				return s.wrap("delete their deliveries", err)
			}
		}
		if idem == nil {
			return nil
		}
		_, err := tx.NewDelete().Model((*idempotencyRow)(nil)).
			Where("user_id = ? AND key = ? AND claim = ?", idem.UserID, idem.Key, idem.Claim).Exec(ctx)
		return s.wrap("release idempotency key", err)
	})
	return len(ids), err
}

// lockUsers locks (lockUser) each user of rows once, in increasing order
// of id, so that two transactions locking the same users cannot deadlock.
func (s store) lockUsers(ctx context.Context, tx bun.Tx, rows []reportRow) error {
	var users []int64
	for _, row := range rows {
		users = append(users, row.UserID)
	}
	slices.Sort(users)
	for _, u := range slices.Compact(users) {
		if err := s.lockUser(ctx, tx, u); err != nil {
			return err
		}
	}
	return nil
}
