package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/site"
	"github.com/pinsight/pinsight/ports"
)

type runRow struct {
	bun.BaseModel `bun:"table:report_runs"`

	ID       int64  `bun:"id,pk,autoincrement"`
	ReportID int64  `bun:"report_id"`
	UserID   int64  `bun:"user_id"`
	At       stamp  `bun:"at"`
	Score    int    `bun:"score"`
	Rating   string `bun:"rating"`
	Failing  string `bun:"failing"` // JSON list of check ids
}

// AddRun implements ports.ReportHistory.
func (s *ReportStore) AddRun(ctx context.Context, userID int64, run site.Run) error {
	failing, err := json.Marshal(run.Failing)
	if err != nil {
		return fmt.Errorf("sqlite: encode run: %w", err)
	}
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	row := runRow{ReportID: run.ReportID, UserID: userID, At: stampOf(run.At), Score: run.Score, Rating: string(run.Rating), Failing: string(failing)}
	if _, err := s.db.write.NewInsert().Model(&row).Exec(ctx); err != nil {
		return wrap("add run", err)
	}
	return nil
}

// Runs implements ports.ReportHistory.
func (s *ReportStore) Runs(ctx context.Context, userID, id int64, limit int) ([]site.Run, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var rows []runRow
	err := s.db.read.NewSelect().Model(&rows).Where("report_id = ? AND user_id = ?", id, userID).OrderExpr("id DESC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, wrap("list runs", err)
	}
	out := make([]site.Run, len(rows))
	for i, row := range rows {
		out[i] = site.Run{ReportID: row.ReportID, At: row.At.utc(), Score: row.Score, Rating: site.Rating(row.Rating)}
		if err := json.Unmarshal([]byte(row.Failing), &out[i].Failing); err != nil {
			return nil, fmt.Errorf("sqlite: run %d: %w", row.ID, err)
		}
	}
	return out, nil
}

// EnqueueDue implements ports.Jobs.
func (j *Jobs) EnqueueDue(ctx context.Context, now time.Time, limit int) (int, error) {
	ctx, cancel := j.db.bound(ctx)
	defer cancel()
	n := 0
	err := j.db.inTx(ctx, "enqueue scheduled analyses", func(ctx context.Context, tx bun.Tx) error {
		var rows []reportRow
		err := tx.NewSelect().Model(&rows).Column("id", "user_id", "schedule").
			Where("schedule <> '' AND next_run_at <= ? AND status IN ('generated', 'failed')", stampOf(now)).
			OrderExpr("next_run_at").Limit(int64(limit)).Scan(ctx)
		if err != nil {
			return wrap("find due reports", err)
		}
		for _, row := range rows {
			next := stampOf(now.Add(site.Schedule(row.Schedule).Period()))
			_, err := tx.NewUpdate().Model((*reportRow)(nil)).
				Set("status = ?", string(site.StatusPending)).Set("attempts = 0").Set("failure = ''").Set("next_run_at = ?", next).
				Where("id = ?", row.ID).Exec(ctx)
			if err != nil {
				return wrap("mark report due", err)
			}
			if _, err := j.Insert(ctx, tx.Tx, row.ID, row.UserID, time.Time{}); err != nil {
				return wrap("enqueue scheduled analysis", err)
			}
			n++
		}
		return nil
	})
	return n, err
}

// Interface guard.
var _ ports.ReportHistory = (*ReportStore)(nil)
