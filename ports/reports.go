package ports

import (
	"context"
	"time"

	"github.com/pinsight/pinsight/domain/report"
)

// ReportStore keeps site-analysis reports. Every method but ReportByToken
// is scoped to one user: another user's report or project is
// report.ErrNotFound, exactly as if it did not exist.
//
// A store wired to a WebhookQueue queues the report.finished event: every
// write that finishes a report's analysis (report.Finishes: stored
// finished, a pending or running report made generated or failed, a
// finished one given another analysis), whichever method or Jobs queue
// writes it, stores in the same transaction a pending delivery
// (webhook.Finished) for each of the user's webhooks that wants the event,
// with its delivery job: the report, its deliveries and their jobs are
// stored together or not at all, once per finish. Other writes, and a
// store without a queue, store no delivery.
type ReportStore interface {
	// CreateReport stores r (r.UserID owns it), assigning an ID greater than
	// every ID assigned before and a share token (report.NewShareToken) no
	// other report has; r.ID and r.Token are ignored.
	CreateReport(ctx context.Context, r report.Report) (report.Report, error)
	// CreateReports stores rs as CreateReport does, in order (their IDs
	// increase in that order), in one transaction. When idem is not nil,
	// the same transaction finishes the user's unfinished record of
	// idem.Key held by idem.Claim: its Outcome becomes idem.Outcome and its
	// ReportIDs the new IDs, so a report and its key are stored together
	// or not at all. When that claim is no longer held, nothing is stored
	// and the error is report.ErrClaimLost. Creating and updating refuse,
	// with report.ErrTooManyScheduled and storing nothing, a write that
	// would give a user more than report.MaxScheduled reports with a
	// schedule, counting and writing atomically (two writes at once cannot
	// both pass the count).
	CreateReports(ctx context.Context, rs []report.Report, idem *report.Idempotency) ([]report.Report, error)
	// ClaimIdempotency starts a request under idem.Key for idem.UserID
	// (idem.Outcome is report.OutcomeNone): when the user's record of that key is not live at
	// now (report.Idempotency.Live: none, expired, or unfinished past its
	// LockedUntil), it stores idem in its place and returns it with true;
	// otherwise it returns the live record, unchanged, with false, and the
	// caller replays or refuses. Every user's records expired at now are
	// purged on the way.
	ClaimIdempotency(ctx context.Context, idem report.Idempotency, now time.Time) (report.Idempotency, bool, error)
	// ReleaseIdempotency deletes the user's unfinished record of idem.Key
	// held by idem.Claim (the request failed: a retry runs it again);
	// nothing when it finished or another claim holds the key.
	ReleaseIdempotency(ctx context.Context, idem report.Idempotency) error
	// Report returns the user's report id, or report.ErrNotFound.
	Report(ctx context.Context, userID, id int64) (report.Report, error)
	// ReportByToken returns the report whose share token is token, whoever
	// owns it and whatever its privacy (the caller decides who may see it),
	// or report.ErrNotFound. The lookup is indexed: its cost does not grow
	// with the number of reports.
	ReportByToken(ctx context.Context, token string) (report.Report, error)
	// Reports returns the page of the user's reports selected by q and the
	// number of reports matching q's filters. A page beyond the last is
	// empty. Listed reports carry every field but Results, which is nil:
	// a list never reads (nor decodes, nor copies) the stored checks.
	Reports(ctx context.Context, userID int64, q report.ReportQuery) ([]report.Report, int, error)
	// UpdateReport loads the user's report id, calls update on it and stores
	// the result, atomically: concurrent updates of one report never lose
	// a change. ID, UserID, Token and CreatedAt cannot be changed. An error from
	// update aborts the update and is returned as is. Returns
	// report.ErrNotFound when the user has no such report.
	UpdateReport(ctx context.Context, userID, id int64, update func(*report.Report) error) (report.Report, error)
	// StartAnalysis marks the user's report id running (Status
	// report.StatusRunning, Attempts one more) and returns it, unless its
	// analysis finished already (report.ErrFinished) or the user has limit
	// other reports running (report.ErrRunningLimit). The check and the
	// mark are one atomic step for each user, across processes sharing the
	// store: concurrent starts never pass the limit. The report itself,
	// running when a crashed run is started again, does not count. limit
	// <= 0 sets no limit. Returns report.ErrNotFound when the user has no
	// such report.
	StartAnalysis(ctx context.Context, userID, id int64, limit int) (report.Report, error)
	// Screenshot returns the image of kind stored with the user's report
	// id (a JPEG of its current analysis' render), or report.ErrNotFound:
	// no such report, another user's, or none of that kind. It is the one
	// read of the images: no other method loads them. A write carrying
	// Report.NewScreenshots replaces the report's images, in its
	// transaction, with those within their caps (report.Screenshots.
	// Bounded), and sets Report.Screenshots to their kinds; a write
	// without keeps them. Deleting the report, its project or (where
	// reports go with their user) its user deletes them.
	Screenshot(ctx context.Context, userID, id int64, kind report.ScreenshotKind) ([]byte, error)
	// DeleteReport deletes the user's report id, or returns report.ErrNotFound.
	// A store whose Jobs queue keeps jobs beside it deletes the report's
	// analysis jobs waiting to run with it (in one transaction where it
	// has them): they would only find the report gone.
	DeleteReport(ctx context.Context, userID, id int64) error
	// Projects returns the page of the user's projects selected by q and
	// the number of projects matching q's search.
	Projects(ctx context.Context, userID int64, q report.ProjectQuery) ([]report.Project, int, error)
	// DeleteProject deletes every report of the user's project name and
	// returns how many; report.ErrNotFound when the user has none. Their
	// waiting analysis jobs go with them, as DeleteReport's.
	DeleteProject(ctx context.Context, userID int64, name string) (int, error)
}
