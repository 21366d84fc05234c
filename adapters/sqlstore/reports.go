package sqlstore

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

type reportRow struct {
	bun.BaseModel `bun:"table:reports,alias:r"`

	ID           int64  `bun:"id,pk,autoincrement"`
	UserID       int64  `bun:"user_id"`
	Token        string `bun:"token"` // the share token: unique, indexed
	URL          string `bun:"url"`
	URLKey       string `bun:"url_key"` // report.URLKey(URL): what search matches
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
	Render       string `bun:"render"`      // the render mode asked; "" is off
	Rendered     bool   `bun:"rendered"`    // Rendering.Rendered, for lists
	Screenshot   string `bun:"screenshot"`  // the screenshot mode asked; "" is viewport
	Screenshots  string `bun:"screenshots"` // the kinds stored (report.KindsText)
	// Results and Rendering are JSON (jsonb on PostgreSQL; Rendering NULL
	// when the analysis did not mean to render), the columns lists never
	// read.
	Results   pagecheck.Results    `bun:"results"`
	Rendering *pagecheck.Rendering `bun:"rendering"`
	// shots are the images the write stores with the row (nil: it keeps
	// those stored), in report_screenshots; bun maps no unexported field.
	shots *report.Screenshots
}

// reportRowFrom is the row of r, with the images r.NewScreenshots carries
// (Screenshots their kinds; without, r.Screenshots as it is).
func reportRowFrom(r report.Report) reportRow {
	if r.Results == nil {
		r.Results = pagecheck.Results{}
	}
	shots := pendingScreenshots(&r, r.Screenshots)
	return reportRow{shots: shots, Screenshot: string(r.Screenshot), Screenshots: report.KindsText(r.Screenshots), ID: r.ID, UserID: r.UserID, Token: r.Token, URL: r.URL, URLKey: report.URLKey(r.URL), Project: r.Project,
		Score: r.Score, Rating: string(r.Rating), Results: r.Results, Rendering: r.Rendering, Render: string(r.Render), Rendered: r.Rendering != nil && r.Rendering.Rendered, Privacy: int(r.Privacy), PasswordHash: r.PasswordHash,
		Status: string(report.StatusOrGenerated(r.Status)), Attempts: r.Attempts, Failure: r.Failure,
		Schedule: string(r.Schedule), NextRunAt: stampOf(r.NextRunAt),
		GeneratedAt: stampOf(r.GeneratedAt), CreatedAt: stampOf(r.CreatedAt), UpdatedAt: stampOf(r.UpdatedAt)}
}

// newReportRows are the rows of new reports rs, each with a fresh token.
func newReportRows(rs []report.Report) []reportRow {
	rows := make([]reportRow, len(rs))
	for i, r := range rs {
		r.Screenshots = nil // a new report has the images it carries, no others
		rows[i] = reportRowFrom(r)
		rows[i].ID, rows[i].Token = 0, report.NewShareToken()
	}
	return rows
}

func (row reportRow) toDomain() report.Report {
	if row.Rendering == nil && row.Rendered { // a list, which reads no rendering: what it shows of it
		row.Rendering = &pagecheck.Rendering{Rendered: true}
	}
	return report.Report{ID: row.ID, UserID: row.UserID, Token: row.Token, URL: row.URL, Project: row.Project, Score: row.Score,
		Rating: pagecheck.Rating(row.Rating), Results: row.Results, Rendering: row.Rendering, Render: pagecheck.RenderMode(row.Render), Privacy: report.Privacy(row.Privacy), PasswordHash: row.PasswordHash,
		Screenshot: report.ScreenshotMode(row.Screenshot), Screenshots: report.ParseKindsText(row.Screenshots),
		Status: report.Status(row.Status), Attempts: row.Attempts, Failure: row.Failure,
		Schedule: report.Schedule(row.Schedule), NextRunAt: row.NextRunAt.utc(),
		GeneratedAt: row.GeneratedAt.utc(), CreatedAt: row.CreatedAt.utc(), UpdatedAt: row.UpdatedAt.utc()}
}

// reportsOf turns stored rows into reports.
func reportsOf(rows []reportRow) []report.Report {
	out := make([]report.Report, len(rows))
	for i, row := range rows {
		out[i] = row.toDomain()
	}
	return out
}

// ReportStore keeps reports (one row each, its checks as JSON), their
// projects, history and Idempotency-Key records, and users' webhooks and
// deliveries.
type ReportStore struct{ store }

// NewReportStore returns the report store on e.
func NewReportStore(e Engine) *ReportStore { return &ReportStore{newStore(e)} }

// CreateReport implements ports.ReportStore.
func (s *ReportStore) CreateReport(ctx context.Context, r report.Report) (report.Report, error) {
	out, err := s.CreateReports(ctx, []report.Report{r}, nil)
	if err != nil {
		return report.Report{}, err
	}
	return out[0], nil
}

// CreateReports implements ports.ReportStore: one transaction inserts the
// reports and finishes the idempotency record.
func (s *ReportStore) CreateReports(ctx context.Context, rs []report.Report, idem *report.Idempotency) ([]report.Report, error) {
	rows := newReportRows(rs)
	ctx, cancel := s.bound(ctx)
	defer cancel()
	err := s.inCreateTx(ctx, "create reports", rows, idem, func(ctx context.Context, tx bun.Tx) error {
		return s.insertReports(ctx, tx, rows, idem)
	})
	if err != nil {
		return nil, err
	}
	return reportsOf(rows), nil
}

// insertReports inserts rows (setting their IDs) and finishes idem, in tx,
// within each user's cap of scheduled reports; the deliveries of those
// inserted finished are queued with them (queueFinished). It locks the
// rows' users first (lockUsers): the cap is counted under the lock, and
// undoing an unacknowledged creation waits on it (undoCreated).
func (s store) insertReports(ctx context.Context, tx bun.Tx, rows []reportRow, idem *report.Idempotency) error {
	if err := s.lockUsers(ctx, tx, rows); err != nil {
		return err
	}
	scheduled := map[int64]int{}
	for _, row := range rows {
		if row.Schedule != "" {
			scheduled[row.UserID]++
		}
	}
	for user, n := range scheduled {
		if err := s.checkScheduleCap(ctx, tx, user, n); err != nil {
			return err
		}
	}
	ids := make([]int64, len(rows))
	for i := range rows {
		if _, err := tx.NewInsert().Model(&rows[i]).Returning("id").Exec(ctx); err != nil {
			return s.wrap("create report", err)
		}
		ids[i] = rows[i].ID
		if err := s.putScreenshots(ctx, tx, rows[i].ID, rows[i].shots); err != nil {
			return err
		}
		if err := s.queueFinished(ctx, tx, report.Report{}, rows[i].toDomain()); err != nil {
			return err
		}
	}
	if idem == nil {
		return nil
	}
	return s.finishIdempotency(ctx, tx, *idem, ids)
}

// Report implements ports.ReportStore.
func (s *ReportStore) Report(ctx context.Context, userID, id int64) (report.Report, error) {
	return s.one(ctx, "get report", "id = ? AND user_id = ?", id, userID)
}

// ReportByToken implements ports.ReportStore (reports_token is the index).
func (s *ReportStore) ReportByToken(ctx context.Context, token string) (report.Report, error) {
	if s.dialect.unstorable(token) {
		return report.Report{}, report.ErrNotFound
	}
	return s.one(ctx, "get report by token", "token = ?", token)
}

// one reads the report matching where, or report.ErrNotFound.
func (s *ReportStore) one(ctx context.Context, op, where string, args ...any) (report.Report, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var row reportRow
	if err := s.e.Read.NewSelect().Model(&row).Where(where, args...).Scan(ctx); err != nil {
		return report.Report{}, s.missing(err, report.ErrNotFound, op)
	}
	return row.toDomain(), nil
}

// Reports implements ports.ReportStore.
func (s *ReportStore) Reports(ctx context.Context, userID int64, q report.ReportQuery) ([]report.Report, int, error) {
	if s.dialect.unstorable(q.Search, q.Project, string(q.Result), string(q.Status)) {
		return []report.Report{}, 0, nil
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var rows []reportRow
	sel := s.e.Read.NewSelect().Model(&rows).ExcludeColumn("results", "rendering").Where("user_id = ?", userID)
	if q.Search != "" {
		sel.Where(s.dialect.contains("url_key"), q.Search)
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
	case report.SortReportsByGeneratedAt:
		sel.OrderExpr("generated_at " + dir)
	case report.SortReportsByURL:
		sel.OrderExpr(s.dialect.binary("url") + " " + dir)
	case report.SortReportsByResult:
		sel.OrderExpr("score " + dir)
	}
	sel.OrderExpr("id " + dir).Limit(int64(q.PerPage)).Offset(int64(q.Offset()))
	total, err := sel.ScanAndCount(ctx)
	if err != nil {
		return nil, 0, s.wrap("list reports", err)
	}
	return reportsOf(rows), int(total), nil
}

// UpdateReport implements ports.ReportStore: the row is locked for the
// read, the update and the write (and the queueing of the deliveries of a
// write that finishes the report).
func (s *ReportStore) UpdateReport(ctx context.Context, userID, id int64, update func(*report.Report) error) (report.Report, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var out report.Report
	err := s.inTx(ctx, "update report", func(ctx context.Context, tx bun.Tx) (err error) {
		out, err = s.updateIn(ctx, tx, userID, id, update)
		return err
	})
	return out, err
}

// StartAnalysis implements ports.ReportStore in one transaction. The
// user's starts are serialised first (PostgreSQL locks the user's row;
// SQLite's IMMEDIATE transaction holds the file's write lock), so the count
// of running reports and the mark are one step.
func (s *ReportStore) StartAnalysis(ctx context.Context, userID, id int64, limit int) (report.Report, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var out report.Report
	err := s.inTx(ctx, "start analysis", func(ctx context.Context, tx bun.Tx) (err error) {
		if limit > 0 {
			if err := s.lockUser(ctx, tx, userID); err != nil {
				return err
			}
			running, err := tx.NewSelect().Model((*reportRow)(nil)).
				Where("user_id = ? AND status = ? AND id <> ?", userID, string(report.StatusRunning), id).Count(ctx)
			if err != nil {
				return s.wrap("count running analyses", err)
			}
			if running >= int64(limit) {
				return report.ErrRunningLimit
			}
		}
		out, err = s.updateIn(ctx, tx, userID, id, func(r *report.Report) error {
			if r.Status.Finished() {
				return report.ErrFinished
			}
			r.Status, r.Attempts = report.StatusRunning, r.Attempts+1
			return nil
		})
		return err
	})
	return out, err
}

// updateIn is UpdateReport's locked read, update and write within tx,
// with the deliveries of the report when the write finishes it
// (queueFinished).
func (s store) updateIn(ctx context.Context, tx bun.Tx, userID, id int64, update func(*report.Report) error) (report.Report, error) {
	var row reportRow
	err := s.dialect.lockRows(tx.NewSelect().Model(&row).Where("id = ? AND user_id = ?", id, userID), false).Scan(ctx)
	if err != nil {
		return report.Report{}, s.missing(err, report.ErrNotFound, "read report to update")
	}
	prev := row.toDomain()
	r := prev
	if err := update(&r); err != nil {
		return report.Report{}, err
	}
	r.ID, r.UserID, r.Token, r.CreatedAt = row.ID, row.UserID, row.Token, row.CreatedAt.utc()
	r.Screenshots = prev.Screenshots // the images' kinds change with the images alone
	next := reportRowFrom(r)
	if row.Schedule == "" && next.Schedule != "" {
		if err := s.lockUser(ctx, tx, userID); err != nil {
			return report.Report{}, err
		}
		if err := s.checkScheduleCap(ctx, tx, userID, 1); err != nil {
			return report.Report{}, err
		}
	}
	_, err = tx.NewUpdate().Model(&next).
		Column("url", "url_key", "project", "score", "rating", "results", "rendering", "render", "rendered", "screenshot", "screenshots", "privacy", "password_hash",
			"status", "attempts", "failure", "schedule", "next_run_at", "generated_at", "updated_at").
		WherePK().Exec(ctx)
	if err != nil {
		return report.Report{}, s.wrap("update report", err)
	}
	if err := s.putScreenshots(ctx, tx, id, next.shots); err != nil {
		return report.Report{}, err
	}
	out := next.toDomain()
	if err := s.queueFinished(ctx, tx, prev, out); err != nil {
		return report.Report{}, err
	}
	return out, nil
}

// checkScheduleCap refuses, with report.ErrTooManyScheduled, a write in tx
// that schedules adding more of the user's reports past
// report.MaxScheduled. The caller locks the user first (lockUser), so two
// writes at once cannot both pass the count.
func (s store) checkScheduleCap(ctx context.Context, tx bun.Tx, userID int64, adding int) error {
	n, err := tx.NewSelect().Model((*reportRow)(nil)).Where("user_id = ? AND schedule <> ''", userID).Count(ctx)
	if err != nil {
		return s.wrap("count scheduled reports", err)
	}
	if int(n)+adding > report.MaxScheduled {
		return report.ErrTooManyScheduled
	}
	return nil
}

// DeleteReport implements ports.ReportStore: the report and its analysis
// jobs that are not running go in one transaction (dropQueuedJobs), its
// runs and screenshots with it (ON DELETE CASCADE).
func (s *ReportStore) DeleteReport(ctx context.Context, userID, id int64) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.inTx(ctx, "delete report", func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewDelete().Model((*reportRow)(nil)).Where("id = ? AND user_id = ?", id, userID).Exec(ctx)
		if err != nil {
			return s.wrap("delete report", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return report.ErrNotFound
		}
		return s.dropQueuedJobs(ctx, tx, "= ?", id)
	})
}

// The kinds of jobs in River's river_job table that rows own, with the
// argument naming the row (adapters/riverjobs names them; the engines'
// tests check that deleting a report or a crawl removes its job).
const (
	analysisJobKind = "pinsight_analysis"
	crawlJobKind    = "pinsight_crawl"
)

// dropQueuedJobs deletes, in tx, the analysis jobs waiting to run (not
// running, not finished) whose report id matches cond with args: those of
// reports being deleted. Such a job would find its report gone and do
// nothing, but only after the queue claimed and ran it; a running one is
// left to finish so (River does not delete running jobs either). The
// queue shares the store's database, so its table is there.
func (s store) dropQueuedJobs(ctx context.Context, tx bun.Tx, cond string, args ...any) error {
	return s.dropWaiting(ctx, tx, analysisJobKind, "report_id", cond, args...)
}

// dropWaiting deletes, in tx, the jobs of kind waiting to run whose
// argument arg matches cond with args (see dropQueuedJobs).
func (s store) dropWaiting(ctx context.Context, tx bun.Tx, kind, arg, cond string, args ...any) error {
	_, err := tx.NewDelete().TableExpr("river_job").
		Where("kind = ?", kind).
		Where("state IN ('available', 'scheduled', 'retryable', 'pending')").
		Where(s.dialect.jobArg(arg)+" "+cond, args...).Exec(ctx)
	return s.wrap("delete queued "+kind+" jobs", err)
}

// deleteOwned deletes the row of model's table whose id is id and whose
// user_id is userID, or returns report.ErrNotFound (none, or another user's).
func (s *ReportStore) deleteOwned(ctx context.Context, model any, userID, id int64, op string) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	res, err := s.e.Write.NewDelete().Model(model).Where("id = ? AND user_id = ?", id, userID).Exec(ctx)
	if err != nil {
		return s.wrap(op, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return report.ErrNotFound
	}
	return nil
}

// DeleteProject implements ports.ReportStore.
func (s *ReportStore) DeleteProject(ctx context.Context, userID int64, name string) (int, error) {
	if s.dialect.unstorable(name) {
		return 0, report.ErrNotFound
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var n int64
	err := s.inTx(ctx, "delete project", func(ctx context.Context, tx bun.Tx) error {
		owned := tx.NewSelect().Model((*reportRow)(nil)).Column("id").Where("user_id = ? AND project = ?", userID, name)
		if err := s.dropQueuedJobs(ctx, tx, "IN (?)", owned); err != nil {
			return err
		}
		res, err := tx.NewDelete().Model((*reportRow)(nil)).Where("user_id = ? AND project = ?", userID, name).Exec(ctx)
		if err != nil {
			return s.wrap("delete project", err)
		}
		if n, _ = res.RowsAffected(); n == 0 {
			return report.ErrNotFound
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return int(n), nil
}

// Interface guard.
var _ ports.ReportStore = (*ReportStore)(nil)
