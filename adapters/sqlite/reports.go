package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/site"
	"github.com/pinsight/pinsight/ports"
)

type reportRow struct {
	bun.BaseModel `bun:"table:reports,alias:r"`

	ID           int64  `bun:"id,pk,autoincrement"`
	UserID       int64  `bun:"user_id"`
	Token        string `bun:"token"` // the share token: unique, indexed
	URL          string `bun:"url"`
	URLKey       string `bun:"url_key"` // site.URLKey(URL): what search matches
	Project      string `bun:"project"`
	Score        int    `bun:"score"`
	Rating       string `bun:"rating"`
	Privacy      int    `bun:"privacy"`
	PasswordHash string `bun:"password_hash"`
	Status       string `bun:"status"`
	Attempts     int    `bun:"attempts"`
	Failure      string `bun:"failure"`
	Schedule     string `bun:"schedule"`
	NextRunAt    stamp  `bun:"next_run_at"`
	GeneratedAt  stamp  `bun:"generated_at"`
	CreatedAt    stamp  `bun:"created_at"`
	UpdatedAt    stamp  `bun:"updated_at"`
	Results      string `bun:"results"` // JSON; the last column, which lists never read
}

func reportRowFrom(r site.Report) (reportRow, error) {
	if r.Results == nil {
		r.Results = site.Results{}
	}
	results, err := json.Marshal(r.Results)
	if err != nil {
		return reportRow{}, fmt.Errorf("sqlite: encode results: %w", err)
	}
	return reportRow{ID: r.ID, UserID: r.UserID, Token: r.Token, URL: r.URL, URLKey: site.URLKey(r.URL), Project: r.Project,
		Score: r.Score, Rating: string(r.Rating), Results: string(results), Privacy: int(r.Privacy), PasswordHash: r.PasswordHash,
		Status: string(site.StatusOrGenerated(r.Status)), Attempts: r.Attempts, Failure: r.Failure,
		Schedule: string(r.Schedule), NextRunAt: stampOf(r.NextRunAt),
		GeneratedAt: stampOf(r.GeneratedAt), CreatedAt: stampOf(r.CreatedAt), UpdatedAt: stampOf(r.UpdatedAt)}, nil
}

// summary is the row as a list shows it: every field but the results.
func (row reportRow) summary() site.Report {
	return site.Report{ID: row.ID, UserID: row.UserID, Token: row.Token, URL: row.URL, Project: row.Project, Score: row.Score,
		Rating: site.Rating(row.Rating), Privacy: site.Privacy(row.Privacy), PasswordHash: row.PasswordHash,
		Status: site.Status(row.Status), Attempts: row.Attempts, Failure: row.Failure,
		Schedule: site.Schedule(row.Schedule), NextRunAt: row.NextRunAt.utc(),
		GeneratedAt: row.GeneratedAt.utc(), CreatedAt: row.CreatedAt.utc(), UpdatedAt: row.UpdatedAt.utc()}
}

func (row reportRow) toDomain() (site.Report, error) {
	r := row.summary()
	if err := json.Unmarshal([]byte(row.Results), &r.Results); err != nil {
		return site.Report{}, fmt.Errorf("sqlite: report %d: decode results: %w", row.ID, err)
	}
	return r, nil
}

// ReportStore keeps reports in the database file, one row per report with
// its checks as JSON text.
type ReportStore struct {
	db *DB
}

// NewReportStore returns a store on db.
func NewReportStore(db *DB) *ReportStore { return &ReportStore{db: db} }

// CreateReport implements ports.ReportStore.
func (s *ReportStore) CreateReport(ctx context.Context, r site.Report) (site.Report, error) {
	out, err := s.CreateReports(ctx, []site.Report{r}, nil)
	if err != nil {
		return site.Report{}, err
	}
	return out[0], nil
}

// CreateReports implements ports.ReportStore: one IMMEDIATE transaction
// inserts the reports and finishes the idempotency record.
func (s *ReportStore) CreateReports(ctx context.Context, rs []site.Report, idem *site.Idempotency) ([]site.Report, error) {
	rows, err := newReportRows(rs)
	if err != nil {
		return nil, err
	}
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	err = s.db.inTx(ctx, "create reports", func(ctx context.Context, tx bun.Tx) error {
		return insertReports(ctx, tx, rows, idem)
	})
	if err != nil {
		return nil, err
	}
	return domainReports(rows)
}

// newReportRows are the rows of new reports rs, each with a fresh token.
func newReportRows(rs []site.Report) ([]reportRow, error) {
	rows := make([]reportRow, len(rs))
	for i, r := range rs {
		row, err := reportRowFrom(r)
		if err != nil {
			return nil, err
		}
		row.ID, row.Token = 0, site.NewShareToken()
		rows[i] = row
	}
	return rows, nil
}

// insertReports inserts rows (setting their IDs) and finishes idem, in tx.
func insertReports(ctx context.Context, tx bun.Tx, rows []reportRow, idem *site.Idempotency) error {
	ids := make([]int64, len(rows))
	for i := range rows {
		if _, err := tx.NewInsert().Model(&rows[i]).Returning("id").Exec(ctx); err != nil {
			return wrap("create report", err)
		}
		ids[i] = rows[i].ID
	}
	if idem == nil {
		return nil
	}
	return finishIdempotency(ctx, tx, *idem, ids)
}

// domainReports turns stored rows into reports.
func domainReports(rows []reportRow) ([]site.Report, error) {
	var err error
	out := make([]site.Report, len(rows))
	for i, row := range rows {
		if out[i], err = row.toDomain(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Report implements ports.ReportStore.
func (s *ReportStore) Report(ctx context.Context, userID, id int64) (site.Report, error) {
	return s.one(ctx, "get report", "id = ? AND user_id = ?", id, userID)
}

// ReportByToken implements ports.ReportStore (reports_token is the index).
func (s *ReportStore) ReportByToken(ctx context.Context, token string) (site.Report, error) {
	if holdsNUL(token) {
		return site.Report{}, site.ErrNotFound
	}
	return s.one(ctx, "get report by token", "token = ?", token)
}

// one reads the report matching where, or site.ErrNotFound.
func (s *ReportStore) one(ctx context.Context, op, where string, args ...any) (site.Report, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var row reportRow
	if err := s.db.read.NewSelect().Model(&row).Where(where, args...).Scan(ctx); err != nil {
		return site.Report{}, siteNotFound(err, op)
	}
	return row.toDomain()
}

// Reports implements ports.ReportStore.
func (s *ReportStore) Reports(ctx context.Context, userID int64, q site.ReportQuery) ([]site.Report, int, error) {
	if holdsNUL(q.Search, q.Project, string(q.Result)) {
		return []site.Report{}, 0, nil
	}
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var rows []reportRow
	sel := s.db.read.NewSelect().Model(&rows).ExcludeColumn("results").Where("user_id = ?", userID)
	if q.Search != "" {
		sel.Where("instr(url_key, ?) > 0", q.Search)
	}
	if q.Project != "" {
		sel.Where("project = ?", q.Project)
	}
	if q.Result != "" {
		sel.Where("rating = ?", string(q.Result))
	}
	if q.Status != "" {
		sel.Where("status = ?", string(q.Status))
	}
	dir := direction(q.Desc)
	switch q.SortBy {
	case site.SortReportsByGeneratedAt:
		sel.OrderExpr("generated_at " + dir) // fixed-width UTC text: text order is time order
	case site.SortReportsByURL:
		sel.OrderExpr("url COLLATE BINARY " + dir)
	case site.SortReportsByResult:
		sel.OrderExpr("score " + dir)
	}
	sel.OrderExpr("id " + dir).Limit(int64(q.PerPage)).Offset(int64(q.Offset()))
	total, err := sel.ScanAndCount(ctx)
	if err != nil {
		return nil, 0, wrap("list reports", err)
	}
	out := make([]site.Report, len(rows))
	for i, row := range rows {
		out[i] = row.summary()
	}
	return out, int(total), nil
}

// UpdateReport implements ports.ReportStore: the transaction starts
// IMMEDIATE, holding SQLite's write lock for the read, the update and the
// write.
func (s *ReportStore) UpdateReport(ctx context.Context, userID, id int64, update func(*site.Report) error) (site.Report, error) {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	var out site.Report
	err := s.db.inTx(ctx, "update report", func(ctx context.Context, tx bun.Tx) (err error) {
		out, err = updateIn(ctx, tx, userID, id, update)
		return err
	})
	return out, err
}

// updateIn is UpdateReport's read, update and write within tx.
func updateIn(ctx context.Context, tx bun.Tx, userID, id int64, update func(*site.Report) error) (site.Report, error) {
	var row reportRow
	if err := tx.NewSelect().Model(&row).Where("id = ? AND user_id = ?", id, userID).Scan(ctx); err != nil {
		return site.Report{}, siteNotFound(err, "read report to update")
	}
	r, err := row.toDomain()
	if err != nil {
		return site.Report{}, err
	}
	if err := update(&r); err != nil {
		return site.Report{}, err
	}
	r.ID, r.UserID, r.Token, r.CreatedAt = row.ID, row.UserID, row.Token, row.CreatedAt.utc()
	next, err := reportRowFrom(r)
	if err != nil {
		return site.Report{}, err
	}
	_, err = tx.NewUpdate().Model(&next).
		Column("url", "url_key", "project", "score", "rating", "results", "privacy", "password_hash",
			"status", "attempts", "failure", "schedule", "next_run_at", "generated_at", "updated_at").
		WherePK().Exec(ctx)
	if err != nil {
		return site.Report{}, wrap("update report", err)
	}
	return next.toDomain()
}

// DeleteReport implements ports.ReportStore.
func (s *ReportStore) DeleteReport(ctx context.Context, userID, id int64) error {
	return s.deleteOwned(ctx, (*reportRow)(nil), userID, id, "delete report")
}

// deleteOwned deletes the row of model's table whose id is id and whose
// user_id is userID, or returns site.ErrNotFound (none, or another user's).
func (s *ReportStore) deleteOwned(ctx context.Context, model any, userID, id int64, op string) error {
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	res, err := s.db.write.NewDelete().Model(model).Where("id = ? AND user_id = ?", id, userID).Exec(ctx)
	if err != nil {
		return wrap(op, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return site.ErrNotFound
	}
	return nil
}

// DeleteProject implements ports.ReportStore.
func (s *ReportStore) DeleteProject(ctx context.Context, userID int64, name string) (int, error) {
	if holdsNUL(name) {
		return 0, site.ErrNotFound
	}
	ctx, cancel := s.db.bound(ctx)
	defer cancel()
	res, err := s.db.write.NewDelete().Model((*reportRow)(nil)).Where("user_id = ? AND project = ?", userID, name).Exec(ctx)
	if err != nil {
		return 0, wrap("delete project", err)
	}
	n, _ := res.RowsAffected()
	if n == 0 {
		return 0, site.ErrNotFound
	}
	return int(n), nil
}

func direction(desc bool) string {
	if desc {
		return "DESC"
	}
	return "ASC"
}

// siteNotFound maps sql.ErrNoRows to site.ErrNotFound (no such report,
// webhook or delivery) and wraps the rest.
func siteNotFound(err error, op string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, sql.ErrNoRows):
		return site.ErrNotFound
	}
	return wrap(op, err)
}

// Interface guard.
var _ ports.ReportStore = (*ReportStore)(nil)
