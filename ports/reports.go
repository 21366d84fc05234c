package ports

import (
	"context"

	"github.com/pinsight/pinsight/domain/site"
)

// ReportStore keeps site-analysis reports. Every method but ReportByToken
// is scoped to one user: another user's report or project is
// site.ErrNotFound, exactly as if it did not exist.
type ReportStore interface {
	// CreateReport stores r (r.UserID owns it), assigning an ID greater than
	// every ID assigned before and a share token (site.NewShareToken) no
	// other report has; r.ID and r.Token are ignored.
	CreateReport(ctx context.Context, r site.Report) (site.Report, error)
	// Report returns the user's report id, or site.ErrNotFound.
	Report(ctx context.Context, userID, id int64) (site.Report, error)
	// ReportByToken returns the report whose share token is token, whoever
	// owns it and whatever its privacy (the caller decides who may see it),
	// or site.ErrNotFound. The lookup is indexed: its cost does not grow
	// with the number of reports.
	ReportByToken(ctx context.Context, token string) (site.Report, error)
	// Reports returns the page of the user's reports selected by q and the
	// number of reports matching q's filters. A page beyond the last is
	// empty. Listed reports carry every field but Results, which is nil:
	// a list never reads (nor decodes, nor copies) the stored checks.
	Reports(ctx context.Context, userID int64, q site.ReportQuery) ([]site.Report, int, error)
	// UpdateReport loads the user's report id, calls update on it and stores
	// the result, atomically: concurrent updates of one report never lose
	// a change. ID, UserID, Token and CreatedAt cannot be changed. An error from
	// update aborts the update and is returned as is. Returns
	// site.ErrNotFound when the user has no such report.
	UpdateReport(ctx context.Context, userID, id int64, update func(*site.Report) error) (site.Report, error)
	// DeleteReport deletes the user's report id, or returns site.ErrNotFound.
	DeleteReport(ctx context.Context, userID, id int64) error
	// Projects returns the page of the user's projects selected by q and
	// the number of projects matching q's search.
	Projects(ctx context.Context, userID int64, q site.ProjectQuery) ([]site.Project, int, error)
	// DeleteProject deletes every report of the user's project name and
	// returns how many; site.ErrNotFound when the user has none.
	DeleteProject(ctx context.Context, userID int64, name string) (int, error)
}
