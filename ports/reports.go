package ports

import (
	"context"
	"time"

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
	// CreateReports stores rs as CreateReport does, in order (their IDs
	// increase in that order), in one transaction. When idem is not nil,
	// the same transaction finishes the user's unfinished record of
	// idem.Key held by idem.Claim: its Outcome becomes idem.Outcome and its
	// ReportIDs the new IDs, so a report and its key are stored together
	// or not at all. When that claim is no longer held, nothing is stored
	// and the error is site.ErrClaimLost.
	CreateReports(ctx context.Context, rs []site.Report, idem *site.Idempotency) ([]site.Report, error)
	// ClaimIdempotency starts a request under idem.Key for idem.UserID
	// (idem.Outcome is site.OutcomeNone): when the user's record of that key is not live at
	// now (site.Idempotency.Live: none, expired, or unfinished past its
	// LockedUntil), it stores idem in its place and returns it with true;
	// otherwise it returns the live record, unchanged, with false, and the
	// caller replays or refuses. Every user's records expired at now are
	// purged on the way.
	ClaimIdempotency(ctx context.Context, idem site.Idempotency, now time.Time) (site.Idempotency, bool, error)
	// ReleaseIdempotency deletes the user's unfinished record of idem.Key
	// held by idem.Claim (the request failed: a retry runs it again);
	// nothing when it finished or another claim holds the key.
	ReleaseIdempotency(ctx context.Context, idem site.Idempotency) error
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
