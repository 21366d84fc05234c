package sqlstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

type runRow struct {
	bun.BaseModel `bun:"table:report_runs"`

	ID       int64    `bun:"id,pk,autoincrement"`
	ReportID int64    `bun:"report_id"`
	UserID   int64    `bun:"user_id"`
	At       stamp    `bun:"at"`
	Score    int      `bun:"score"`
	Rating   string   `bun:"rating"`
	Failing  []string `bun:"failing"` // JSON list of check ids (jsonb on PostgreSQL)
}

// AddRun implements ports.ReportHistory.
func (s *ReportStore) AddRun(ctx context.Context, userID int64, run report.Run) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	failing := run.Failing
	if failing == nil {
		failing = []string{}
	}
	row := runRow{ReportID: run.ReportID, UserID: userID, At: stampOf(run.At), Score: run.Score, Rating: string(run.Rating), Failing: failing}
	_, err := s.e.Write.NewInsert().Model(&row).Exec(ctx)
	return s.wrap("add run", err)
}

// Runs implements ports.ReportHistory.
func (s *ReportStore) Runs(ctx context.Context, userID, id int64, limit int) ([]report.Run, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var rows []runRow
	err := s.e.Read.NewSelect().Model(&rows).Where("report_id = ? AND user_id = ?", id, userID).OrderExpr("id DESC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, s.wrap("list runs", err)
	}
	out := make([]report.Run, len(rows))
	for i, row := range rows {
		out[i] = report.Run{ReportID: row.ReportID, At: row.At.utc(), Score: row.Score, Rating: pagecheck.Rating(row.Rating), Failing: row.Failing}
	}
	return out, nil
}

// Interface guard.
var _ ports.ReportHistory = (*ReportStore)(nil)
