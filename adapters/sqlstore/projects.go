package sqlstore

import (
	"context"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
)

type projectRow struct {
	Project   string `bun:"project"`
	Reports   int    `bun:"reports"`
	Score     int    `bun:"score"`
	CreatedAt stamp  `bun:"created_at"`
}

// Projects implements ports.ReportStore: one GROUP BY over the user's
// reports; the average is truncated by integer division, as in Go.
func (s *ReportStore) Projects(ctx context.Context, userID int64, q report.ProjectQuery) ([]report.Project, int, error) {
	if s.dialect.unstorable(q.Search) {
		return []report.Project{}, 0, nil
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	filter := s.e.Read.NewSelect().Model((*reportRow)(nil)).Where("user_id = ?", userID)
	if q.Search != "" {
		filter.Where(s.dialect.contains("project"), q.Search)
	}
	var total int
	if err := s.e.Read.NewSelect().TableExpr("(?) AS f", filter.ColumnExpr("DISTINCT project")).ColumnExpr("count(*)").Scan(ctx, &total); err != nil {
		return nil, 0, s.wrap("count projects", err)
	}
	sel := s.e.Read.NewSelect().Model((*reportRow)(nil)).Where("user_id = ?", userID).
		ColumnExpr("project, count(*) AS reports, sum(score) / count(*) AS score, min(created_at) AS created_at").
		GroupExpr("project")
	if q.Search != "" {
		sel.Where(s.dialect.contains("project"), q.Search)
	}
	dir := direction(q.Desc)
	if q.SortBy == report.SortProjectsByCreatedAt {
		sel.OrderExpr("min(created_at) " + dir) // SQLite's fixed-width UTC text sorts as time
	}
	sel.OrderExpr(s.dialect.binary("project") + " " + dir).Limit(int64(q.PerPage)).Offset(int64(q.Offset()))
	var rows []projectRow
	if err := sel.Scan(ctx, &rows); err != nil {
		return nil, 0, s.wrap("list projects", err)
	}
	out := make([]report.Project, len(rows))
	for i, r := range rows {
		out[i] = report.Project{Name: r.Project, Reports: r.Reports, Score: r.Score, Rating: pagecheck.RatingFor(r.Score), CreatedAt: r.CreatedAt.utc()}
	}
	return out, total, nil
}
